package dev.switchboard.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.switchboard.protocol.codec.CardCodec;
import dev.switchboard.protocol.codec.Timestamps;
import dev.switchboard.protocol.codec.WireCodec;
import dev.switchboard.protocol.jsonrpc.JsonRpcCodec;
import dev.switchboard.protocol.jsonrpc.JsonRpcRequest;
import dev.switchboard.protocol.jsonrpc.JsonRpcResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every JSON vector recorded from the real SDKs (under {@code src/test/resources/vectors/<source>/})
 * must parse with the reader for its type and version, survive write → read as an equal model, and
 * lose nothing on write: every member the SDK sent with a non-default value is in our output with an
 * equal value.
 *
 * <p>Documented exceptions to "equal value": timestamps are compared as instants at millisecond
 * precision (we always write {@code .sssZ} in UTC); {@code protocolVersion} is compared as
 * Major.Minor; base64 is compared as bytes (any alphabet). Defaults the SDKs print and we omit
 * ({@code false}, {@code ""}, {@code []}, {@code {}}, {@code null}) are not required.
 */
class SdkVectorTest {

    private static final Path DIR = Path.of(System.getProperty("basedir", "."), "src/test/resources/vectors");

    /** Compares models by their components, with instants truncated to what the wire keeps. */
    private static final ObjectMapper MODEL = new ObjectMapper().registerModule(new SimpleModule()
            .addSerializer(Instant.class, new StdSerializer<>(Instant.class) {
                @Override
                public void serialize(Instant value, JsonGenerator gen, SerializerProvider provider) throws IOException {
                    gen.writeString(value.truncatedTo(ChronoUnit.MILLIS).toString());
                }
            }));

    @Test
    void vectorDirectoryIsNotEmptyWhenItExists() throws IOException {
        if (Files.isDirectory(DIR)) {
            assertThat(vectorFiles()).as("vector files under " + DIR).isNotEmpty();
        }
    }

    @Test
    void lossCheckCatchesADroppedOrChangedMemberButNotADroppedDefault() {
        JsonNode sdk = Json.parse("{\"a\":1,\"b\":{\"c\":\"x\"},\"d\":false,\"e\":[]}");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> assertNoLoss(sdk, Json.parse("{\"a\":1}"), "$"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("$.b");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> assertNoLoss(sdk, Json.parse("{\"a\":1,\"b\":{\"c\":\"y\"}}"), "$"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("$.b.c");
        assertNoLoss(sdk, Json.parse("{\"a\":1.0,\"b\":{\"c\":\"x\"}}"), "$");
    }

    @Test
    void modelComparisonSeesEveryComponentAndTruncatesInstantsToMilliseconds() {
        var status = new dev.switchboard.protocol.model.TaskStatus(dev.switchboard.protocol.model.TaskState.WORKING,
                dev.switchboard.protocol.model.Message.userText("m", "x"), Instant.parse("2026-01-01T00:00:00.123456Z"));
        JsonNode tree = MODEL.valueToTree(status);
        assertThat(tree.at("/message/messageId").asText()).isEqualTo("m");
        assertThat(tree.at("/message/parts/0/text").asText()).isEqualTo("x");
        assertThat(tree.get("timestamp").asText()).isEqualTo("2026-01-01T00:00:00.123Z");
    }

    @TestFactory
    Stream<DynamicTest> everySdkVectorReadsWritesAndRereadsWithoutLoss() throws IOException {
        if (!Files.isDirectory(DIR)) {
            return Stream.empty();
        }
        return vectorFiles().stream().map(file ->
                DynamicTest.dynamicTest(DIR.relativize(file).toString(), file.toUri(), () -> check(file)));
    }

    /**
     * Every model vector also goes to the other version and back. From 0.3 the trip through 1.0 must
     * keep the model (bar the status update's final flag, which 1.0 lacks); from 1.0 it must at least
     * produce 0.3 that reads again, since 0.3 cannot carry everything (see V03Codec).
     */
    @TestFactory
    Stream<DynamicTest> everySdkVectorTranslatesToTheOtherVersionAndBack() throws IOException {
        if (!Files.isDirectory(DIR)) {
            return Stream.empty();
        }
        return vectorFiles().stream().map(file ->
                DynamicTest.dynamicTest(DIR.relativize(file).toString(), file.toUri(), () -> translate(file)));
    }

    private static void translate(Path file) throws IOException {
        JsonNode vector = Json.parse(Files.readAllBytes(file));
        ProtocolVersion from = VersionDetector.parse(vector.path("version").asText()).orElseThrow();
        ProtocolVersion to = from == ProtocolVersion.V1_0 ? ProtocolVersion.V0_3 : ProtocolVersion.V1_0;
        WireCodec in = WireCodec.of(from);
        WireCodec out = WireCodec.of(to);
        JsonNode json = vector.get("json");
        switch (vector.path("type").asText()) {
            case "message" -> via(json, in::readMessage, out::writeMessage, out::readMessage, from);
            case "task" -> via(json, in::readTask, out::writeTask, out::readTask, from);
            case "sendResult" -> via(json, in::readSendResult, out::writeSendResult, out::readSendResult, from);
            case "streamEvent" -> via(json, in::readStreamEvent, out::writeStreamEvent, out::readStreamEvent, from);
            case "sendParams" -> via(json, in::readSendParams, out::writeSendParams, out::readSendParams, from);
            case "taskQuery" -> via(json, in::readTaskQuery, t -> out.writeTaskQuery(
                    new dev.switchboard.protocol.model.TaskQueryParams(t.id(), t.historyLength(), t.metadata(), null)),
                    out::readTaskQuery, from);
            case "error" -> assertThat(out.readError(out.writeError(in.readError(json))).code())
                    .isEqualTo(json.get("code").asInt());
            case "card" -> assertThat(CardCodec.read(out.writeCard(CardCodec.read(json))).name())
                    .isEqualTo(json.path("name").asText());
            default -> { } // envelopes and the 1.0-only ListTasks have no cross-version model form
        }
    }

    private static <T> void via(JsonNode json, Function<JsonNode, T> read, Function<T, JsonNode> write,
            Function<JsonNode, T> readOther, ProtocolVersion from) {
        T model = read.apply(json);
        T translated = readOther.apply(write.apply(model));
        if (from == ProtocolVersion.V0_3) {
            JsonNode before = withoutFinal(MODEL.valueToTree(model));
            JsonNode after = withoutFinal(MODEL.valueToTree(translated));
            assertThat(after).as("0.3 → 1.0 keeps the model").isEqualTo(before);
        }
    }

    private static JsonNode withoutFinal(JsonNode node) {
        if (node instanceof com.fasterxml.jackson.databind.node.ObjectNode o) {
            o.remove("isFinal");
            o.remove("final");
            o.forEach(SdkVectorTest::withoutFinal);
        } else if (node.isArray()) {
            node.forEach(SdkVectorTest::withoutFinal);
        }
        return node;
    }

    private static List<Path> vectorFiles() throws IOException {
        try (Stream<Path> files = Files.walk(DIR)) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().collect(Collectors.toList());
        }
    }

    private static void check(Path file) throws IOException {
        JsonNode vector = Json.parse(Files.readAllBytes(file));
        String type = vector.path("type").asText();
        ProtocolVersion version = VersionDetector.parse(vector.path("version").asText())
                .orElseThrow(() -> new AssertionError("vector version: " + vector.path("version")));
        WireCodec codec = WireCodec.of(version);
        JsonNode json = vector.get("json");
        assertThat(json).as("json member").isNotNull();
        switch (type) {
            case "message" -> roundTrip(json, codec::readMessage, codec::writeMessage);
            case "task" -> roundTrip(json, codec::readTask, codec::writeTask);
            case "sendResult" -> roundTrip(json, codec::readSendResult, codec::writeSendResult);
            case "streamEvent" -> roundTrip(json, codec::readStreamEvent, codec::writeStreamEvent);
            case "sendParams" -> roundTrip(json, codec::readSendParams, codec::writeSendParams);
            case "taskQuery" -> roundTrip(json, codec::readTaskQuery, codec::writeTaskQuery);
            case "listTasksParams" -> roundTrip(json, codec::readListTasksParams, codec::writeListTasksParams);
            case "listTasksResult" -> roundTrip(json, codec::readListTasksResult, codec::writeListTasksResult);
            case "error" -> roundTrip(json, codec::readError, codec::writeError);
            case "card" -> roundTrip(json, CardCodec::read,
                    json.has("url") && json.has("supportedInterfaces") ? CardCodec::writeHybrid : codec::writeCard);
            case "request" -> checkRequest(json, codec);
            case "response" -> checkResponse(json, codec);
            default -> fail("unknown vector type '" + type + "'");
        }
    }

    private static <T> void roundTrip(JsonNode sdk, Function<JsonNode, T> read, Function<T, JsonNode> write) {
        T model = read.apply(sdk);
        JsonNode written = write.apply(model);
        assertThat(written.toString()).as("written JSON is one line").doesNotContain("\n");
        T reread = read.apply(written);
        JsonNode before = MODEL.valueToTree(model);
        JsonNode after = MODEL.valueToTree(reread);
        assertThat(after).as("model after write → read").isEqualTo(before);
        assertNoLoss(sdk, written, "$");
    }

    /** The envelope, then the params with the reader the method calls for. */
    private static void checkRequest(JsonNode sdk, WireCodec codec) {
        JsonRpcRequest request = JsonRpcCodec.readRequest(sdk.toString().getBytes(StandardCharsets.UTF_8));
        JsonNode params = request.params();
        Optional<A2aMethod> method = A2aMethod.fromName(request.method());
        if (params != null && method.isPresent()) {
            params = switch (method.get()) {
                case SEND_MESSAGE, SEND_STREAMING_MESSAGE -> codec.writeSendParams(codec.readSendParams(params));
                case GET_TASK, CANCEL_TASK, SUBSCRIBE_TO_TASK -> codec.writeTaskQuery(codec.readTaskQuery(params));
                case LIST_TASKS -> codec.writeListTasksParams(codec.readListTasksParams(params));
                default -> params;
            };
        }
        JsonNode written = Json.parse(JsonRpcCodec.request(request.id(), request.method(), params));
        assertThat(JsonRpcCodec.readRequest(written.toString().getBytes(StandardCharsets.UTF_8)))
                .as("request after write → read").isEqualTo(new JsonRpcRequest(request.id(), request.method(), params));
        assertNoLoss(sdk, written, "$");
    }

    /** The envelope, the error through the codec, and a result whose shape tells its type. */
    private static void checkResponse(JsonNode sdk, WireCodec codec) {
        JsonRpcResponse response = JsonRpcCodec.readResponse(sdk);
        String written;
        if (response.isError()) {
            written = JsonRpcCodec.error(response.id(), codec.writeError(response.error()));
        } else {
            written = JsonRpcCodec.result(response.id(), rewriteResult(response.result(), codec));
        }
        JsonNode json = Json.parse(written);
        assertThat(JsonRpcCodec.readResponse(json).id()).as("echoed id").isEqualTo(response.id());
        assertNoLoss(sdk, json, "$");
    }

    private static JsonNode rewriteResult(JsonNode result, WireCodec codec) {
        boolean wrapped = Stream.of("task", "message", "statusUpdate", "artifactUpdate").anyMatch(result::has);
        if ((codec.version() == ProtocolVersion.V1_0 && wrapped) || (codec.version() == ProtocolVersion.V0_3 && result.has("kind"))) {
            return codec.writeStreamEvent(codec.readStreamEvent(result));
        }
        if (result.has("id") && result.has("status")) {
            return codec.writeTask(codec.readTask(result));
        }
        return result;
    }

    /** Every non-default member of {@code sdk} is in {@code ours} with an equal value. */
    static void assertNoLoss(JsonNode sdk, JsonNode ours, String path) {
        if (isDefault(sdk)) {
            return;
        }
        if (ours == null || ours.isMissingNode()) {
            fail(path + ": the SDK wrote " + sdk + ", we wrote nothing");
        }
        if (sdk.isObject()) {
            assertThat(ours.isObject()).as(path + " is an object in " + ours).isTrue();
            for (Map.Entry<String, JsonNode> e : sdk.properties()) {
                if (!isDefault(e.getValue())) {
                    assertNoLoss(e.getValue(), ours.get(e.getKey()), path + "." + e.getKey());
                }
            }
        } else if (sdk.isArray()) {
            assertThat(ours.isArray() && ours.size() == sdk.size()).as(path + ": " + ours + " vs SDK " + sdk).isTrue();
            for (int i = 0; i < sdk.size(); i++) {
                assertNoLoss(sdk.get(i), ours.get(i), path + "[" + i + "]");
            }
        } else if (sdk.isNumber()) {
            assertThat(ours.isNumber() && ours.decimalValue().compareTo(sdk.decimalValue()) == 0)
                    .as(path + ": " + ours + " vs SDK " + sdk).isTrue();
        } else {
            assertThat(normalise(ours, path)).as(path).isEqualTo(normalise(sdk, path));
        }
    }

    private static Object normalise(JsonNode value, String path) {
        if (!value.isTextual()) {
            return value;
        }
        String key = path.substring(path.lastIndexOf('.') + 1);
        String text = value.textValue();
        if (key.toLowerCase().contains("timestamp")) {
            return Timestamps.parse(text).truncatedTo(ChronoUnit.MILLIS);
        }
        if (key.equals("protocolVersion")) {
            return CardCodec.normaliseVersion(text);
        }
        if (key.equals("raw") || key.equals("bytes")) {
            return Base64.getEncoder().encodeToString(text.contains("-") || text.contains("_")
                    ? Base64.getUrlDecoder().decode(text) : Base64.getDecoder().decode(text));
        }
        return text;
    }

    private static boolean isDefault(JsonNode v) {
        return v == null || v.isNull() || (v.isBoolean() && !v.booleanValue())
                || (v.isTextual() && v.textValue().isEmpty()) || (v.isContainerNode() && v.isEmpty());
    }
}
