package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The hot path's JSON scanner ({@link JsonScan}, used by {@link RoutingFields#scan} and {@link ReplyShape#scan})
 * against Jackson, differentially: on every input — hand-picked edge cases and a hundred thousand random mutations
 * of real requests and replies — the scanner either answers exactly what Jackson answers or declines (null), and it
 * declines every input Jackson refuses. It must also answer the ordinary cases, or it would buy nothing.
 */
class JsonScanTest {

    private static final String REQUEST = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\",\"params\":{\"message\":"
            + "{\"role\":\"user\",\"parts\":[{\"kind\":\"text\",\"text\":\"h\\u00e9llo \\\"w\\\" ünï 😀\"}],\"messageId\":\"m-1\"},"
            + "\"configuration\":{\"timeout\":12.5,\"blocking\":true},\"metadata\":{\"n\":[1,-2,3.5e-3,0,null,false]}}}";
    private static final String REPLY = "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{\"kind\":\"task\",\"status\":{\"state\":"
            + "\"completed\"},\"artifacts\":[{\"parts\":[{\"text\":\"x\"}]}]}}";
    private static final String ERROR = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32004,\"message\":\"no\"}}";

    private static final List<String> CASES = List.of(
            REQUEST, REPLY, ERROR,
            "{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"method\":\"tasks/get\"}",
            "  {\"method\":\"m\",\"jsonrpc\":\"2.0\"}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":-0,\"method\":\"m\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":123456789012345678,\"method\":\"m\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1234567890123456789012,\"method\":\"m\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"m\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"m\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"m\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\" \"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":3}",
            "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"m\"}",
            "{\"jsonrpc\":2.0,\"id\":1,\"method\":\"m\"}",
            "{\"id\":1,\"method\":\"m\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"method\":\"n\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"m\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"me\\u0074hod\":\"m\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":\"a\\\"b\",\"method\":\"m\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"configuration\":{\"timeout\":0}}}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"configuration\":{\"timeout\":-3}}}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"configuration\":{\"timeout\":1e400}}}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"configuration\":{\"timeout\":\"5\"}}}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"configuration\":{\"timeout\":5,\"timeout\":6}}}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"configuration\":[1]}}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":[1,2]}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":null}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"} ",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"} x",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}{}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",}",
            "{\"jsonrpc\":\"2.0\",\"id\":01,\"method\":\"m\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"x\":[1,]}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"x\":.5}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"x\":NaN}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"x\":\"tab\there\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"x\":\"\\x\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"x\":'s'}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\" /* c */}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"x\":tru}",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"x\":nulls}",
            "\uFEFF{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}",
            "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}]",
            "\"just a string\"", "42", "", " ", "{", "}", "{}", "{\"jsonrpc\":\"2.0\",\"result\":1",
            "{\"result\":{}}", "{\"jsonrpc\":\"2.0\",\"error\":{},\"result\":{}}", "{\"jsonrpc\":\"2.0\",\"result\":{},\"error\":{}}",
            "{\"jsonrpc\":\"2.0\",\"result\":{}} trailing", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[[[[[[[[[[[[[[]]]]]]]]]]]]]]}",
            "{\"a\":" + "[".repeat(300) + "]".repeat(300) + "}");

    @Test
    void theScannerAnswersTheOrdinaryRequestAndReplies() {
        assertThat(RoutingFields.scan(bytes(REQUEST), 0, bytes(REQUEST).length)).isNotNull()
                .isEqualTo(RoutingFields.parseWithJackson(bytes(REQUEST), 0, bytes(REQUEST).length));
        assertThat(RoutingFields.scan(bytes(REQUEST), 0, bytes(REQUEST).length).timeoutSeconds()).isEqualTo(12.5);
        assertThat(ReplyShape.scan(bytes(REPLY), 0, bytes(REPLY).length)).isEqualTo(ReplyShape.RESULT);
        assertThat(ReplyShape.scan(bytes(ERROR), 0, bytes(ERROR).length)).isEqualTo(ReplyShape.ERROR);
    }

    @Test
    void onHandPickedCasesTheScannerAgreesWithJacksonOrDeclines() {
        for (String c : CASES) {
            agree(bytes(c));
        }
    }

    @Test
    void onRandomMutationsTheScannerAgreesWithJacksonOrDeclines() {
        Random random = new Random(15);
        byte[] alphabet = "{}[]\",:\\/ \t\n0123456789.-+eEtrufalsn\u0001x".getBytes(StandardCharsets.UTF_8);
        byte[][] extra = {{(byte) 0xc3, (byte) 0xa9}, {(byte) 0xc3}, {(byte) 0x80}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
                {(byte) 0xf0, (byte) 0x9f, (byte) 0x98, (byte) 0x80}, {(byte) 0xc0, (byte) 0xaf}, {(byte) 0xff}};
        List<byte[]> bases = List.of(bytes(REQUEST), bytes(REPLY), bytes(ERROR));
        int answered = 0;
        for (int n = 0; n < 100_000; n++) {
            List<Byte> doc = new ArrayList<>();
            for (byte x : bases.get(random.nextInt(bases.size()))) {
                doc.add(x);
            }
            int edits = 1 + random.nextInt(3);
            for (int e = 0; e < edits; e++) {
                int at = random.nextInt(doc.size() + 1);
                switch (random.nextInt(3)) {
                    case 0 -> {
                        if (at < doc.size()) {
                            doc.remove(at);
                        }
                    }
                    case 1 -> {
                        if (random.nextInt(4) == 0) {
                            for (byte x : extra[random.nextInt(extra.length)]) {
                                doc.add(Math.min(at, doc.size()), x);
                                at++;
                            }
                        } else {
                            doc.add(at, alphabet[random.nextInt(alphabet.length)]);
                        }
                    }
                    default -> {
                        if (at < doc.size()) {
                            doc.set(at, alphabet[random.nextInt(alphabet.length)]);
                        }
                    }
                }
            }
            byte[] b = new byte[doc.size()];
            for (int k = 0; k < b.length; k++) {
                b[k] = doc.get(k);
            }
            answered += agree(b);
        }
        // most mutations break the JSON; enough of them do not for the comparison to mean something
        assertThat(answered).isGreaterThan(1_000);
    }

    @Test
    void aBodyInsideALargerArrayIsReadAtItsOffset() {
        byte[] inner = bytes(REQUEST);
        byte[] outer = new byte[inner.length + 20];
        System.arraycopy(inner, 0, outer, 7, inner.length);
        outer[6] = '{';
        outer[7 + inner.length] = '}';
        assertThat(RoutingFields.parse(outer, 7, inner.length)).isEqualTo(RoutingFields.parse(inner));
    }

    /** 1 when the scanner answered (and agreed), 0 when it declined. */
    private static int agree(byte[] b) {
        int answered = 0;
        RoutingFields jackson;
        try {
            jackson = RoutingFields.parseWithJackson(b, 0, b.length);
        } catch (GatewayException refused) {
            jackson = null;
        }
        RoutingFields fast = RoutingFields.scan(b, 0, b.length);
        if (fast != null) {
            answered = 1;
            assertThat(fast).as(new String(b, StandardCharsets.UTF_8)).isEqualTo(jackson);
        }
        ReplyShape shape = ReplyShape.scan(b, 0, b.length);
        if (shape != null) {
            assertThat(shape).as(new String(b, StandardCharsets.UTF_8)).isEqualTo(ReplyShape.withJackson(b, 0, b.length));
        }
        return answered;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
