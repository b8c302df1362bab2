package dev.switchboard.fuzz;

import static dev.switchboard.fuzz.Inputs.oneOf;

import dev.switchboard.fuzz.Inputs.Input;
import dev.switchboard.fuzz.Inputs.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Hostile input for the MCP door ({@code /mcp}, issue 25): JSON-RPC messages of every kind MCP has (initialize,
 * tools/list, tools/call of known and unknown tools with arguments of wrong types and sizes, cancellations,
 * responses, batches), mostly on the one live session the run opened ({@link #session}), bent by the shared JSON
 * mutations; wrong methods, headers and session ids besides. Every answer must be a 4xx or a JSON-RPC answer,
 * never a 5xx (but a 503 with Retry-After: the session cap).
 */
final class McpInputs {

    /** The session the run opened with initialize, as the fuzzer's API key. */
    static volatile String session = "none";

    private McpInputs() {}

    static Input input(long index, Random r) {
        List<String[]> headers = new ArrayList<>();
        Inputs.auth(r, headers, Inputs.API_KEY);
        if (r.nextInt(6) > 0) {
            headers.add(new String[] {"Content-Type", "application/json"});
        } else {
            Inputs.contentType(r, headers);
        }
        headers.add(new String[] {"Accept", oneOf(r, "application/json, text/event-stream", "text/event-stream",
                "application/json", "*/*", "text/html")});
        String method = r.nextInt(15) == 0 ? oneOf(r, "GET", "DELETE", "PUT", "PATCH") : "POST";
        int s = r.nextInt(10);
        if (s < 7 && !method.equals("DELETE") && !method.equals("GET")) {
            // the live session, but never deleted (the rest of the run needs it) nor listened to (a GET on it is an
            // SSE stream open for as long as the session: no answer to judge)
            headers.add(new String[] {"Mcp-Session-Id", session});
        } else if (s < 9) {
            headers.add(new String[] {"Mcp-Session-Id", oneOf(r, "nope", "", "x".repeat(5000), "%00", session + "x")});
        }
        StringBuilder what = new StringBuilder("mcp");
        byte[] body = method.equals("POST") || r.nextInt(4) == 0 ? Inputs.jsonBody(r, () -> message(r, what), what) : null;
        return new Input(index, Target.MCP, method, "/mcp" + (r.nextInt(30) == 0 ? "?x=%zz" : ""), headers, body, null,
                what.toString());
    }

    private static String message(Random r, StringBuilder what) {
        String id = r.nextInt(4) > 0 ? oneOf(r, "1", "\"a\"", "7") : oneOf(r, "null", "{}", "[1]", "1.5", "-1",
                "\"" + "i".repeat(300) + "\"");
        return switch (r.nextInt(9)) {
            case 0 -> {
                what.append(" initialize");
                yield "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"initialize\",\"params\":"
                        + oneOf(r, "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"f\",\"version\":\"1\"}}",
                                "{}", "null", "{\"protocolVersion\":7}", "{\"protocolVersion\":\"1999-01-01\",\"capabilities\":[]}") + "}";
            }
            case 1 -> {
                what.append(" tools/list");
                yield "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/list\"" + oneOf(r, "", ",\"params\":{\"cursor\":\"zz\"}") + "}";
            }
            case 2 -> {
                what.append(" cancelled");
                yield "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":" + id + "}}";
            }
            case 3 -> {
                what.append(" response");
                yield "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}";
            }
            case 4 -> {
                what.append(" batch");
                yield "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]";
            }
            default -> {
                String tool = oneOf(r, "send_message", "send_message", "list_agents", "get_task", "cancel_task",
                        "echo.echo", "no_such_tool", "", "x".repeat(500));
                what.append(" tools/call ").append(tool.length() > 20 ? "long" : tool);
                yield "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                        + "\",\"arguments\":" + arguments(r) + (r.nextInt(4) == 0 ? ",\"_meta\":{\"progressToken\":" + id + "}" : "")
                        + "}}";
            }
        };
    }

    private static String arguments(Random r) {
        String agent = oneOf(r, "\"echo\"", "\"echo\"", "\"hostile\"", "\"nope\"", "7", "null", "[\"echo\"]",
                "\"" + "a".repeat(400) + "\"");
        String text = oneOf(r, "\"hi\"", "\"/stream 3 10\\nfuzz\"", "\"/ask why?\"", "42", "{}", "null", "\"\"",
                "\"" + "t".repeat(r.nextInt(4) == 0 ? 300_000 : 30) + "\"");
        return oneOf(r,
                "{\"agent\":" + agent + ",\"text\":" + text + ",\"timeoutSeconds\":" + oneOf(r, "2", "0", "-1", "\"3\"", "1e9", "2.5") + "}",
                "{\"agent\":" + agent + ",\"text\":" + text + ",\"timeoutSeconds\":2,\"taskId\":" + oneOf(r, "\"t-1\"", "5", "\"\"") + "}",
                "{\"agent\":" + agent + ",\"taskId\":" + oneOf(r, "\"t-1\"", "5", "null") + "}",
                "{\"tags\":" + oneOf(r, "[\"echo\"]", "\"echo\"", "[1,2]", "{}") + "}",
                "{\"unknown\":1}", "null", "[]", "\"args\"");
    }
}
