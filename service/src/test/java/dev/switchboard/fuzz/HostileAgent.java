package dev.switchboard.fuzz;

import dev.switchboard.gateway.support.RawAgent;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The agent on the way back: answers every JSON-RPC call with a malformed reply (broken JSON, wrong
 * JSON-RPC shapes, wrong Content-Types, malformed SSE, abrupt closes) and every card fetch with a
 * malformed card. The reply is picked from the fuzz case's index (the gateway forwards the caller's
 * {@code X-Fuzz-Case} header), so a case replays with the same reply; calls without it (the chat
 * bridge's, card fetches) take the next pick of the seeded sequence. The status it sent for each case
 * is kept: a 5xx the gateway relays is the agent's own, not the gateway's.
 */
final class HostileAgent {

    static final String CASE_HEADER = "X-Fuzz-Case";
    /** The limits the agent is configured with (small, so "too large" and idle timeouts are reached). */
    static final long MAX_RESPONSE_BYTES = 64 * 1024;

    private final long seed;
    private final AtomicLong uncased = new AtomicLong();
    /** case index → HTTP status this agent answered it with */
    final Map<Long, Integer> statusByCase = new ConcurrentHashMap<>();
    /** case index → which malformed reply it got (for reports) */
    final Map<Long, Integer> replyByCase = new ConcurrentHashMap<>();

    HostileAgent(long seed) {
        this.seed = seed;
    }

    RawAgent.Responder responder() {
        return (req, body, exchange) -> {
            Long index = caseIndex(req.getHeader(CASE_HEADER));
            Random r = new Random(index != null ? Inputs.mix(seed ^ 0x5eedL, index)
                    : Inputs.mix(seed ^ 0xa9e47L, uncased.incrementAndGet()));
            if (req.path().endsWith("/agent-card.json")) {
                card(req, r);
            } else {
                int kind = r.nextInt(26);
                if (index != null) {
                    replyByCase.put(index, kind);
                }
                int status = reply(req, r, kind);
                if (index != null) {
                    statusByCase.put(index, status);
                }
            }
        };
    }

    private static Long caseIndex(String header) {
        if (header == null) {
            return null;
        }
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Answers a JSON-RPC call; returns the status sent (-1 when the connection was dropped without one). */
    private static int reply(HttpServerRequest req, Random r, int kind) {
        HttpServerResponse resp = req.response();
        switch (kind) {
            case 0 -> plain(resp, 200, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":");
            case 1 -> plain(resp, 200, "text/html", "<html><body>502 oops</body></html>");
            case 2 -> plain(resp, 200, "application/json", "{\"jsonrpc\":\"1.0\",\"id\":{},\"result\":1,\"error\":\"x\"}");
            case 3 -> plain(resp, 200, "application/json", "[1,2,3]");
            case 4 -> plain(resp, 200, "application/json", "");
            case 5 -> {
                // an agent's own JSON-RPC error with a 5xx: relayed as it is (README)
                return plain(resp, 500, "application/json",
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"boom\"}}");
            }
            case 6 -> plain(resp, 500, "text/plain", "Internal Server Error");
            case 7 -> plain(resp, 502 + r.nextInt(3), "text/plain", "bad gateway");
            case 8 -> plain(resp, 404, "text/html", "<h1>not here</h1>");
            case 9, 10, 11, 12 -> {
                return sse(resp, r);
            }
            case 13 -> {
                req.connection().close();
                return -1;
            }
            case 14 -> {
                resp.setStatusCode(200).setChunked(true).putHeader("Content-Type", "application/json");
                resp.write("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"mess");
                req.connection().close();
                return 200;
            }
            case 15 -> {
                resp.reset();
                return -1;
            }
            case 16 -> {
                resp.setStatusCode(200).putHeader("Content-Type", "application/json; charset=utf-16");
                resp.end(Buffer.buffer(new byte[] {'{', '"', (byte) 0xff, (byte) 0xfe, 0, '"', ':', (byte) 0xc3, '}'}));
            }
            case 17 -> plain(resp, 200, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"a\u0000b\"}");
            case 18 -> plain(resp, 200, "application/json",
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"" + "x".repeat((int) MAX_RESPONSE_BYTES + 10) + "\"}");
            case 19 -> {
                if (r.nextInt(8) == 0) {
                    return -1; // silent: the gateway's (short) timeout answers
                }
                plain(resp, 200, "application/json", "[".repeat(100_000));
            }
            case 20 -> {
                resp.setStatusCode(301).putHeader("Location", "http://127.0.0.1:1/elsewhere").end();
                return 301;
            }
            case 21 -> {
                resp.setStatusCode(200).putHeader("Content-Type", "application/json")
                        .putHeader("A2A-Version", "garbage\u00ff").putHeader("Retry-After", "-1")
                        .end("{\"jsonrpc\":\"2.0\",\"id\":\"other\",\"result\":null}");
            }
            case 22 -> {
                resp.setStatusCode(429).putHeader("Retry-After", "soon-ish").putHeader("Content-Type", "application/json")
                        .end("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":\"busy\",\"message\":7}}");
                return 429;
            }
            case 23 -> {
                resp.setStatusCode(401).putHeader("WWW-Authenticate", "Bearer").end();
                return 401;
            }
            case 24 -> plain(resp, 200, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
            default -> plain(resp, 200, "application/json",
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"task\",\"id\":5,\"status\":{\"state\":[]}," +
                            "\"artifacts\":\"none\",\"contextId\":{\"a\":1}}}");
        }
        return resp.getStatusCode();
    }

    private static int plain(HttpServerResponse resp, int status, String type, String body) {
        resp.setStatusCode(status);
        if (type != null) {
            resp.putHeader("Content-Type", type);
        }
        resp.end(body);
        return status;
    }

    private static final String[] FRAMES = {
            "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"status-update\",\"taskId\":\"t\",\"contextId\":\"c\","
                    + "\"status\":{\"state\":\"working\"},\"final\":false}}\n\n",
            "event: message\n\n",
            "event:\n\n",
            "no colon in this line\n\n",
            "data: {broken json\n\n",
            "data: \"just a string\"\n\n",
            "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":\"x\"}}\n\n",
            "data: a\rdata: b\r\r",
            "id: \u0000\nretry: -5\n\n",
            ":\n\n",
            ": comment only\n\n",
            "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"statusUpdate\":{\"status\":{\"state\":\"TASK_STATE_BOGUS\"}}}}\n\n",
            "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"status-update\",\"final\":true,\"status\":{\"state\":\"completed\"}}}\n\n",
            "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"artifact-update\",\"artifact\":{\"parts\":[{\"kind\":\"text\"}]}}}\n\n",
            "data:{\"jsonrpc\":\"2.0\"\ndata: ,\"id\":1}\n\n",
            "\n\n\n",
            "data: no end of event",
    };

    /** A 200 text/event-stream with malformed frames, ended, dropped or left hanging (the idle timeout cuts it). */
    private static int sse(HttpServerResponse resp, Random r) {
        resp.setStatusCode(200).setChunked(true).putHeader("Content-Type", "text/event-stream");
        int frames = r.nextInt(6);
        for (int i = 0; i < frames; i++) {
            switch (r.nextInt(10)) {
                case 0 -> resp.write("data: " + "y".repeat(r.nextBoolean() ? 5_000 : (int) MAX_RESPONSE_BYTES + 100) + "\n\n");
                case 1 -> resp.write(Buffer.buffer(new byte[] {'d', 'a', 't', 'a', ':', ' ', (byte) 0xff, (byte) 0xc0,
                        (byte) 0x80, (byte) 0xed, (byte) 0xa0, (byte) 0x80, '\n', '\n'}));
                default -> resp.write(FRAMES[r.nextInt(FRAMES.length)]);
            }
        }
        switch (r.nextInt(5)) {
            case 0 -> resp.reset();
            case 1 -> { } // hangs: the stream idle timeout (2 s) ends it
            default -> resp.end();
        }
        return 200;
    }

    private static final String[] CARDS = {
            "{\"name\":\"hostile\",\"url\":",
            "[]",
            "null",
            "{\"name\":5}",
            "{\"name\":\"h\",\"supportedInterfaces\":\"nope\"}",
            "{\"name\":\"h\",\"supportedInterfaces\":[1,null,{\"url\":5},{\"protocolBinding\":[]}]}",
            "{\"name\":\"h\",\"skills\":{\"a\":1}}",
            "{\"name\":\"h\",\"skills\":[{\"id\":null,\"tags\":\"t\"},7,{\"id\":\"s\",\"tags\":[1,{}]}]}",
            "{\"name\":\"h\",\"capabilities\":[],\"defaultInputModes\":\"text\",\"version\":{}}",
            "{\"name\":\"h\",\"url\":\"javascript:alert(1)\",\"protocolVersion\":5,\"additionalInterfaces\":{}}",
            "{\"name\":\"h\",\"url\":\"http://127.0.0.1:1/\",\"additionalInterfaces\":[{\"url\":null,\"transport\":3}]}",
            "{\"name\":\"h\",\"signatures\":\"x\",\"securitySchemes\":[1],\"security\":{\"a\":null}}",
            "{\"name\":\"h\",\"name\":\"dup\",\"description\":\"a\u0000b\"}",
            "{\"name\":\"h\",\"supportedInterfaces\":[{\"url\":\"http://x/\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":1.0}]}",
            "{\"name\":\"echo-card\",\"description\":\"fine\",\"url\":\"http://127.0.0.1:1/\",\"version\":\"1\","
                    + "\"protocolVersion\":\"0.3.0\",\"capabilities\":{\"streaming\":true},\"defaultInputModes\":[\"text\"],"
                    + "\"defaultOutputModes\":[\"text\"],\"skills\":[]}",
    };

    private static void card(HttpServerRequest req, Random r) {
        HttpServerResponse resp = req.response();
        int pick = r.nextInt(CARDS.length + 8);
        if (pick < CARDS.length) {
            plain(resp, 200, "application/json", CARDS[pick]);
            return;
        }
        switch (pick - CARDS.length) {
            case 0 -> plain(resp, 200, "application/json", "{\"name\":" + "[".repeat(50_000));
            case 1 -> plain(resp, 200, "application/json",
                    "{\"name\":\"big\",\"description\":\"" + "z".repeat(1024 * 1024 + 10) + "\"}");
            case 2 -> plain(resp, 500, "text/plain", "no card");
            case 3 -> {
                resp.setStatusCode(302).putHeader("Location", "http://127.0.0.1:1/card").end();
            }
            case 4 -> plain(resp, 200, "text/html", "<html/>");
            case 5 -> req.connection().close();
            case 6 -> {
                resp.setStatusCode(200).putHeader("Content-Type", "application/json");
                resp.end(Buffer.buffer("{\"name\":\"\u00ff".getBytes(StandardCharsets.ISO_8859_1))
                        .appendBytes(new byte[] {(byte) 0xc0, (byte) 0xaf, '"', '}'}));
            }
            default -> plain(resp, 200, "application/json", "");
        }
    }
}
