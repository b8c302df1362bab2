package dev.switchboard.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * The malformed inputs: case {@code i} of seed {@code s} is always the same request (its own
 * {@code Random(mix(s, i))}), so a failure is replayed from the seed and the index alone.
 */
final class Inputs {

    static final String API_KEY = "fuzz-api-key-0123456789abcdef";
    static final String ADMIN_TOKEN = "fuzz-admin-token-0123456789abcdef";

    /** Where a request goes, which decides what it may be answered with. */
    enum Target { GATEWAY, REGISTRY, CARD, CHAT, SLACK, TRIGGER, HOST, STALL, RAW, JWT, MCP }

    /** One request. {@code raw}, when set, is written to the socket as it is (malformed HTTP framing). */
    record Input(long index, Target target, String method, String path, List<String[]> headers, byte[] body, byte[] raw,
            String what) {

        String header(String name) {
            for (String[] h : headers) {
                if (h[0].equalsIgnoreCase(name)) {
                    return h[1];
                }
            }
            return null;
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder("#" + index + " " + target + " (" + what + ") ");
            if (raw != null) {
                return b.append("raw bytes: ").append(show(raw, 600)).toString();
            }
            b.append(method).append(' ').append(show(path.getBytes(StandardCharsets.UTF_8), 300));
            for (String[] h : headers) {
                b.append("\n    ").append(h[0]).append(": ").append(show(h[1].getBytes(StandardCharsets.ISO_8859_1), 200));
            }
            if (body != null) {
                b.append("\n    body (").append(body.length).append(" bytes): ").append(show(body, 600));
            }
            return b.toString();
        }
    }

    private final long seed;
    /** Thread ids the web chat handed out, for message posts into real threads. */
    private final List<String> threads;

    Inputs(long seed, List<String> threads) {
        this.seed = seed;
        this.threads = threads;
    }

    /** SplitMix64 of seed and index: independent streams per case. */
    static long mix(long seed, long index) {
        long z = seed + 0x9E3779B97F4A7C15L * (index + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    Input input(long index) {
        Random r = new Random(mix(seed, index));
        int pick = r.nextInt(100);
        if (pick < 26) {
            return gateway(index, r);
        } else if (pick < 32) {
            return McpInputs.input(index, r);
        } else if (pick < 45) {
            return registry(index, r);
        } else if (pick < 51) {
            return card(index, r);
        } else if (pick < 66) {
            return chat(index, r);
        } else if (pick < 78) {
            return SlackInputs.input(index, r);
        } else if (pick < 87) {
            return TriggerInputs.input(index, r);
        } else if (pick < 92) {
            return HardeningInputs.foreignHost(index, r);
        } else if (pick < 95) {
            return HardeningInputs.stalled(index, r);
        } else if (pick < 97) {
            return JwtInputs.input(index, r);
        }
        return raw(index, r);
    }

    // ---- the gateway ----

    private static final String[] METHODS = {"message/send", "message/stream", "SendMessage", "SendStreamingMessage",
            "tasks/get", "GetTask", "tasks/cancel", "CancelTask", "tasks/resubscribe", "ListTasks", "no/such/method"};

    private Input gateway(long index, Random r) {
        List<String[]> headers = new ArrayList<>();
        headers.add(new String[] {HostileAgent.CASE_HEADER, Long.toString(index)});
        auth(r, headers, API_KEY);
        contentType(r, headers);
        if (r.nextInt(3) == 0) {
            headers.add(new String[] {"A2A-Version", oneOf(r, VERSIONS)});
        }
        if (r.nextInt(8) == 0) {
            headers.add(oddHeader(r));
        }
        StringBuilder what = new StringBuilder();
        byte[] body = envelope(r, what);
        String path = "/a2a/" + agentId(r) + (r.nextInt(10) == 0 ? oneOf(r, QUERIES) : "");
        return new Input(index, Target.GATEWAY, "POST", path, headers, body, null, what.toString());
    }

    private static final String[] VERSIONS = {"", " ", "1.0", "0.3", "0.3.0", "2.0", "1.0, 0.3", "1.", ".", "abc",
            "99999999999999999999999", "-1", " 1.0 ", "1.0;q=0.5", "0x1", "1e3", "null", "\t", "1.0 1.0", "%31.0",
            "x".repeat(3000)};
    private static final String[] QUERIES = {"?A2A-Version=9", "?%zz", "?a=" + "q".repeat(2000), "?&&&=", "?x=%00",
            "?A2A-Version=1.0&A2A-Version=0.3"};

    private static String agentId(Random r) {
        return switch (r.nextInt(20)) {
            case 0 -> "echo";
            case 1 -> "fz-" + r.nextInt(8);
            case 2 -> "nope-unknown";
            case 3 -> oneOf(r, "A", "x", "UPPER", "a_b", "-", "--", "a".repeat(64), "a".repeat(500), "0");
            case 4 -> oneOf(r, "..", ".", "%2e%2e", "a%2Fb", "hostile%2F..%2Fx", "%00", "%ff%fe", "hostile%20",
                    "%E2%98%83", "hostile;x=1", "hostile/extra", "hostile/.well-known/agent-card.json", "hostile//",
                    "%25", "hostile%", "~", "hostile:8080", "@hostile");
            case 5 -> "";
            default -> "hostile";
        };
    }

    private byte[] envelope(Random r, StringBuilder what) {
        String method = oneOf(r, METHODS);
        String id = oneOf(r, "1", "\"s-1\"", "null", "0", "-7");
        String params = params(r);
        String json = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}";
        int mutations = r.nextInt(4);
        what.append(method);
        for (int i = 0; i < mutations; i++) {
            json = mutate(r, json, what);
        }
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        if (r.nextInt(6) == 0) {
            what.append(" +bytes");
            bytes = byteMutation(r, bytes);
        }
        return bytes;
    }

    private static String params(Random r) {
        String text = oneOf(r, "hello", "", "\\u0000", "\\ud800", "a\\nb", "x".repeat(2000));
        String timeout = r.nextInt(4) == 0 ? ",\"configuration\":{\"timeout\":"
                + oneOf(r, "-1", "0", "1e308", "0.0001", "\"5\"", "1", "2.5", "99999999999999999999", "[]", "null") + "}"
                : "";
        return switch (r.nextInt(4)) {
            case 0 -> "{\"message\":{\"kind\":\"message\",\"messageId\":\"m1\",\"role\":\"user\",\"parts\":[{\"kind\":\"text\","
                    + "\"text\":\"" + text + "\"}]}" + timeout + "}";
            case 1 -> "{\"message\":{\"messageId\":\"m2\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"" + text + "\"}]}"
                    + timeout + "}";
            case 2 -> "{\"id\":\"task-1\",\"historyLength\":" + oneOf(r, "1", "-1", "1e9", "\"a\"") + "}";
            default -> "{}";
        };
    }

    private String mutate(Random r, String json, StringBuilder what) {
        switch (r.nextInt(22)) {
            case 0 -> {
                what.append(" truncated");
                return json.substring(0, r.nextInt(json.length() + 1));
            }
            case 1 -> {
                what.append(" jsonrpc-type");
                return sub(json, "\"jsonrpc\":\"2.0\"", "\"jsonrpc\":" + value(r));
            }
            case 2 -> {
                what.append(" id-type");
                return replaceValue(json, "\"id\":", value(r));
            }
            case 3 -> {
                what.append(" method-type");
                return replaceValue(json, "\"method\":", value(r));
            }
            case 4 -> {
                what.append(" params-type");
                return replaceValue(json, "\"params\":", value(r));
            }
            case 5 -> {
                what.append(" deep");
                int depth = oneOf(r, 150, 199, 200, 201, 1000, 20_000);
                String open = r.nextBoolean() ? "[" : "{\"a\":";
                String close = open.equals("[") ? "]" : "}";
                return sub(json, "\"params\":", "\"params\":" + open.repeat(depth) + "1" + close.repeat(depth)
                        + ",\"p2\":");
            }
            case 6 -> {
                what.append(" huge-number");
                String n = "9".repeat(oneOf(r, 20, 400, 1001, 5000)) + oneOf(r, "", ".5", "e999999999", "E-99999");
                return r.nextBoolean() ? replaceValue(json, "\"id\":", n)
                        : sub(json, "\"params\":\\{", "\"params\":{\"configuration\":{\"timeout\":" + n + "},");
            }
            case 7 -> {
                what.append(" dup-keys");
                return sub(json, "\\{", "{" + oneOf(r, "\"id\":{},", "\"jsonrpc\":\"1.0\",", "\"method\":7,",
                        "\"params\":[],", "\"id\":1,\"id\":2,") ) + oneOf(r, "", ",\"jsonrpc\":\"3\"}");
            }
            case 8 -> {
                what.append(" batch");
                return oneOf(r, "[]", "[" + json + "]", "[" + json + "," + json + "]", "[1,2", "[[[]]]");
            }
            case 9 -> {
                what.append(" notification");
                return sub(json, "\"id\":[^,]*,", "");
            }
            case 10 -> {
                what.append(" trailing");
                return json + oneOf(r, "{}", " x", "\u0000", "]", ",", "\n\n{\"jsonrpc\":\"2.0\"}");
            }
            case 11 -> {
                what.append(" bad-escape");
                return sub(json, "\"method\":\"", "\"method\":\"" + oneOf(r, "\\u00", "\\x41", "\\ud800", "\\",
                        "\\uDFFF\\uD800", "\\u0000"));
            }
            case 12 -> {
                what.append(" scalar");
                return oneOf(r, "", " ", "null", "true", "1", "\"str\"", "{", "}", "{}", "{\"\":\"\"}", "NaN",
                        "{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"id\":Infinity}", "{\"jsonrpc\":\"2.0\",'id':1}",
                        "/* c */{}", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",}");
            }
            case 13 -> {
                what.append(" bom");
                return "\uFEFF" + json;
            }
            case 14 -> {
                what.append(" method-odd");
                return sub(json, "\"method\":\"[^\"]*\"", "\"method\":\"" + oneOf(r, "", " ", "\\t",
                        "m".repeat(10_000), "message/send\\u0000", "../../admin", "☃", "\\ud83d\\ude00") + "\"");
            }
            case 15 -> {
                what.append(" big-string");
                return sub(json, "\"params\":", "\"pad\":\"" + "p".repeat(oneOf(r, 70_000, 300_000)) + "\",\"params\":");
            }
            case 16 -> {
                what.append(" many-keys");
                StringBuilder b = new StringBuilder("{");
                int n = oneOf(r, 1000, 20_000);
                for (int i = 0; i < n; i++) {
                    b.append("\"k").append(i).append("\":").append(i).append(',');
                }
                return b + (json.isEmpty() ? "" : json.substring(1));
            }
            case 17 -> {
                what.append(" timeout-odd");
                return sub(json, "\"params\":\\{", "\"params\":{\"configuration\":{\"timeout\":"
                        + oneOf(r, "-0.0", "1e-320", "4.9e-324", "1.7976931348623157e308", "3", "{\"x\":1}", "[1]",
                        "true") + "},");
            }
            case 18 -> {
                what.append(" null-fields");
                return oneOf(r, "{\"jsonrpc\":null,\"id\":null,\"method\":null,\"params\":null}",
                        "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"message/send\"}",
                        "{\"jsonrpc\":\"2.0\",\"method\":\"message/send\",\"params\":null}");
            }
            case 19 -> {
                what.append(" control-chars");
                return sub(json, "\"method\"", "\"me\u0001\u001fthod\"");
            }
            case 20 -> {
                what.append(" id-odd");
                return replaceValue(json, "\"id\":", oneOf(r, "1.5", "-0", "1e2", "true", "[1]", "{\"a\":1}",
                        "\"" + "i".repeat(5000) + "\"", "18446744073709551616", "-9223372036854775809", "\"\""));
            }
            default -> {
                what.append(" whitespace");
                return json.replace(",", oneOf(r, " ,\n\t", "\r\n,", "\u00a0,", "\u2028,"));
            }
        }
    }

    /** The first match of {@code regex} replaced by {@code replacement}, taken literally. */
    private static String sub(String json, String regex, String replacement) {
        return json.replaceFirst(regex, java.util.regex.Matcher.quoteReplacement(replacement));
    }

    private static String replaceValue(String json, String key, String value) {
        int at = json.indexOf(key);
        if (at < 0) {
            return json;
        }
        int start = at + key.length();
        int end = valueEnd(json, start);
        return json.substring(0, start) + value + json.substring(end);
    }

    /** The end of the JSON value starting at {@code i} (good enough for our own well-formed templates). */
    private static int valueEnd(String s, int i) {
        int depth = 0;
        boolean inString = false;
        for (int j = i; j < s.length(); j++) {
            char c = s.charAt(j);
            if (inString) {
                if (c == '\\') {
                    j++;
                } else if (c == '"') {
                    inString = false;
                    if (depth == 0) {
                        return j + 1;
                    }
                }
                continue;
            }
            switch (c) {
                case '"' -> inString = true;
                case '{', '[' -> depth++;
                case '}', ']' -> {
                    if (depth == 0) {
                        return j;
                    }
                    depth--;
                    if (depth == 0) {
                        return j + 1;
                    }
                }
                case ',' -> {
                    if (depth == 0) {
                        return j;
                    }
                }
                default -> { }
            }
        }
        return s.length();
    }

    private static String value(Random r) {
        return oneOf(r, "null", "true", "false", "0", "-1", "2.0", "1e400", "\"\"", "\"1.0\"", "\"2.0 \"", "[]", "{}",
                "[\"2.0\"]", "{\"v\":\"2.0\"}", "\"\\u0000\"", "9".repeat(30), "\"" + "v".repeat(3000) + "\"");
    }

    static byte[] byteMutation(Random r, byte[] in) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = in.length == 0 ? 0 : r.nextInt(in.length);
        out.write(in, 0, at);
        switch (r.nextInt(6)) {
            case 0 -> out.writeBytes(new byte[] {(byte) 0xff, (byte) 0xfe});           // never UTF-8
            case 1 -> out.writeBytes(new byte[] {(byte) 0xc0, (byte) 0xaf});           // overlong '/'
            case 2 -> out.writeBytes(new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80}); // encoded surrogate
            case 3 -> out.writeBytes(new byte[] {(byte) 0xe2, (byte) 0x82});           // truncated sequence
            case 4 -> out.write(0);
            default -> {
                if (at < in.length) {
                    out.write(in[at] ^ (1 << r.nextInt(8)));
                    at++;
                }
            }
        }
        out.write(in, at, in.length - at);
        return out.toByteArray();
    }

    // ---- the registry ----

    private Input registry(long index, Random r) {
        List<String[]> headers = new ArrayList<>();
        int op = r.nextInt(6);
        boolean write = op < 3 || op == 5;
        auth(r, headers, write ? ADMIN_TOKEN : API_KEY);
        if (op < 3) {
            contentType(r, headers);
        }
        StringBuilder what = new StringBuilder();
        return switch (op) {
            case 0 -> new Input(index, Target.REGISTRY, "POST", "/agents/register", headers,
                    jsonBody(r, () -> registration(r), what), null, "register" + what);
            case 1 -> new Input(index, Target.REGISTRY, "POST", "/agents/heartbeat", headers,
                    jsonBody(r, () -> "{\"agent_id\":" + idValue(r) + "}", what), null, "heartbeat" + what);
            case 2 -> new Input(index, Target.REGISTRY, "POST", "/agents/deregister", headers,
                    jsonBody(r, () -> "{\"agent_id\":" + idValue(r) + "}", what), null, "deregister" + what);
            case 3 -> new Input(index, Target.REGISTRY, "GET", "/agents" + listQuery(r), headers, null, null, "list");
            case 4 -> new Input(index, Target.REGISTRY, "GET", "/agents/" + pathId(r), headers, null, null, "get");
            default -> new Input(index, Target.REGISTRY, "DELETE", "/agents/" + pathId(r), headers, null, null, "delete");
        };
    }

    private static String registration(Random r) {
        String id = idValue(r);
        String url = oneOf(r, "\"http://127.0.0.1:1/\"", "\"http://[::1]:1/\"", "\"ftp://127.0.0.1/\"", "\"/relative\"",
                "\"http://\"", "\"http://127.0.0.1:99999/\"", "\"http:// bad/\"", "\"\"", "5", "null", "\"javascript:x\"",
                "\"http://127.0.0.1:1/" + "u".repeat(5000) + "\"", "\"HTTP://127.0.0.1:1\"", "\"http://127.0.0.1:1/?q=%zz\"");
        String skills = oneOf(r, "[]", "null", "{}", "\"s\"", "[1]", "[{}]", "[{\"id\":\"s\",\"tags\":\"t\"}]",
                "[{\"id\":\"s\",\"tags\":[1]}]", "[{\"id\":\"s\",\"name\":7}]", "[{\"id\":\"s\",\"tags\":[\"fuzz\",\"\"]}]",
                "[{\"id\":\"" + "s".repeat(5000) + "\"}]");
        String extra = oneOf(r, "", ",\"description\":7", ",\"version\":[]", ",\"defaultInputModes\":\"text\"",
                ",\"protocolVersions\":[null]", ",\"protocolVersions\":[\"9.9\"]", ",\"headers\":{\"Authorization\":\"x\"}",
                ",\"limits\":{\"maxConcurrency\":-1}", ",\"agent_id\":\"dup\"");
        return "{\"agent_id\":" + id + ",\"name\":" + oneOf(r, "\"n\"", "\"\"", "7", "null", "\" \"", "\"\\u0000\"")
                + ",\"url\":" + url + ",\"skills\":" + skills + extra + "}";
    }

    private static String idValue(Random r) {
        return oneOf(r, "\"fz-" + r.nextInt(8) + "\"", "\"fz-" + r.nextInt(8) + "\"", "\"hostile\"", "\"echo\"", "\"\"",
                "\"A\"", "\"a\"", "\"" + "a".repeat(64) + "\"", "\"../x\"", "\"fz 1\"", "null", "7", "[]", "{}",
                "\"fz-\\u0000\"", "\"fz-\\ud800\"");
    }

    private static String listQuery(Random r) {
        return switch (r.nextInt(8)) {
            case 0 -> "";
            case 1 -> "?limit=" + oneOf(r, "0", "-1", "1", "2147483648", "abc", "", "1.5", "%201", "%00", "99999999999999999999");
            case 2 -> "?skill_tags=" + oneOf(r, "", ",", ",,,", "fuzz", "a,b,c", "%E2%98%83", "%zz", "x".repeat(5000), "%00");
            case 3 -> "?skill_tags=fuzz&limit=" + r.nextInt(5) + "&limit=x";
            case 4 -> "?limit";
            case 5 -> "?skill_tags=" + "a,".repeat(2000);
            case 6 -> "?%%%=%%%";
            default -> "?limit=2&skill_tags=demo";
        };
    }

    private static String pathId(Random r) {
        return oneOf(r, "fz-" + r.nextInt(8), "hostile", "echo", "nope", "A", "%00", "%2e%2e", "a%2Fb", "x".repeat(3000),
                "%E2%98%83", "%", "..", "fz-1%20", "fz-1;x");
    }

    // ---- the cards ----

    private Input card(long index, Random r) {
        List<String[]> headers = new ArrayList<>();
        if (r.nextBoolean()) {
            headers.add(new String[] {"A2A-Version", oneOf(r, VERSIONS) + (r.nextInt(4) == 0 ? r.nextInt(1000) : "")});
        }
        if (r.nextInt(4) == 0) {
            headers.add(new String[] {"Host", oneOf(r, "evil.example", "127.0.0.1:1", "[::1]", "a b", "x".repeat(300), ":",
                    "h:99999", "[zz")});
        }
        if (r.nextInt(5) == 0) {
            headers.add(new String[] {"X-Forwarded-Proto", oneOf(r, "javascript", "", "https, http")});
            headers.add(new String[] {"X-Forwarded-Host", oneOf(r, "evil", "a\"b", "x".repeat(500))});
        }
        String path = r.nextInt(3) == 0 ? "/.well-known/agent-card.json"
                : "/a2a/" + oneOf(r, "hostile", "hostile", "echo", "fz-" + r.nextInt(8), "nope", "A", "%00", "x".repeat(300),
                        "%22%3Cscript%3E", "a%2Fb") + "/.well-known/agent-card.json";
        return new Input(index, Target.CARD, "GET", path, headers, null, null, "card");
    }

    // ---- the web chat ----

    private Input chat(long index, Random r) {
        List<String[]> headers = new ArrayList<>();
        contentType(r, headers);
        if (r.nextInt(10) == 0) {
            headers.add(new String[] {"X-Forwarded-User", oneOf(r, "", "mallory", "x".repeat(3000), "a\tb")});
        }
        StringBuilder what = new StringBuilder();
        int op = r.nextInt(12);
        if (op >= 10) {
            return new Input(index, Target.CHAT, "POST", "/api/chat/threads/" + threadId(r) + "/answers", headers,
                    jsonBody(r, () -> answer(r), what), null, "answer" + what);
        }
        if (op < 5) {
            String channel = oneOf(r, "hostile", "hostile", "hostile", "echo", "nope", "%00", "..", "x".repeat(1000),
                    "%E2%98%83", "HOSTILE");
            return new Input(index, Target.CHAT, "POST", "/api/chat/channels/" + channel + "/threads", headers,
                    jsonBody(r, () -> chatMessage(r), what), null, "new thread" + what);
        } else if (op < 8) {
            return new Input(index, Target.CHAT, "POST", "/api/chat/threads/" + threadId(r) + "/messages", headers,
                    jsonBody(r, () -> chatMessage(r), what), null, "message" + what);
        } else if (op == 8) {
            return new Input(index, Target.CHAT, "GET", "/api/chat/threads/" + threadId(r), headers, null, null, "thread");
        }
        // the events stream of a real thread stays open: only odd ids here
        String odd = oneOf(r, "nope", "%00", "..", "x".repeat(2000), "'%20OR%201=1--", "%25");
        return new Input(index, Target.CHAT, "GET",
                oneOf(r, "/api/chat/threads/" + odd + "/events", "/api/chat/channels/" + odd + "/threads",
                        "/api/chat/channels", "/api/chat/me", "/api/chat/" + odd),
                headers, null, null, "read");
    }

    private String threadId(Random r) {
        synchronized (threads) {
            if (!threads.isEmpty() && r.nextInt(3) > 0) {
                return threads.get(r.nextInt(threads.size()));
            }
        }
        return oneOf(r, "00000000-0000-0000-0000-000000000000", "nope", "%00", "..", "x".repeat(2000), "'%20OR%201=1--",
                "%E2%98%83", "%25", "a%2Fb");
    }

    private static String chatMessage(Random r) {
        String text = switch (r.nextInt(10)) {
            case 0 -> oneOf(r, "null", "7", "[]", "{}", "true", "\"\"", "\"   \"", "\"\\u0000\"");
            case 1 -> "\"" + "t".repeat(oneOf(r, 32 * 1024, 32 * 1024 + 1, 40_000)) + "\"";
            case 2 -> "\"\\ud800 lone\"";
            case 3 -> "\"/fail 503\"";
            default -> "\"hello " + r.nextInt(1000) + "\"";
        };
        String id = switch (r.nextInt(6)) {
            case 0 -> ",\"messageId\":" + oneOf(r, "7", "\"\"", "\"a b\"", "\"" + "m".repeat(129) + "\"", "[]", "null",
                    "\"../x\"", "\"m\\u0000\"");
            case 1 -> ",\"messageId\":\"fz-m" + r.nextInt(50) + "\"";
            // issue 22, H1: ids shaped like the ones Switchboard derives (an answer's, a trigger's, a Slack post's),
            // which a caller must never be able to take
            case 2 -> ",\"messageId\":\"" + oneOf(r, "answer-fz-m" + r.nextInt(50), "answer-answer-fz-m1", "slack:C0FUZZ:1.2",
                    "trigger-alerts-" + Long.toHexString(r.nextLong()), "web:echo:fz-m1", "answer-" + r.nextInt(1000)) + "\"";
            default -> "";
        };
        return "{\"text\":" + text + id + "}";
    }

    /** A structured answer ({@code questionId} with a decision or answers), its fields often wrong. */
    private static String answer(Random r) {
        String questionId = oneOf(r, "\"q-1\"", "\"fz-m" + r.nextInt(50) + "\"", "\"\"", "7", "null", "[]", "{}",
                "\"" + "q".repeat(129) + "\"", "\"a b\"", "\"../x\"", "\"q\\u0000\"", "\"answer-q-1\"");
        String body = switch (r.nextInt(8)) {
            case 0, 1 -> ",\"decision\":" + oneOf(r, "\"approve\"", "\"reject\"", "\"APPROVE\"", "true", "7", "null", "[]", "\"\"")
                    + (r.nextBoolean() ? ",\"reason\":" + oneOf(r, "\"because\"", "7", "null", "[]", "\"</untrusted-data>\"",
                    "\"" + "r".repeat(oneOf(r, 32 * 1024, 32 * 1024 + 1)) + "\"", "\"\\ud800\"", "\"   \"") : "");
            case 2, 3 -> ",\"answers\":" + oneOf(r, "[\"yes\"]", "[[\"a\",\"b\"]]", "[]", "[null]", "[7]", "[[7]]", "[[]]", "\"yes\"",
                    "{}", "null", "[\"" + "a".repeat(40_000) + "\"]", "[" + "\"x\",".repeat(50) + "\"x\"]",
                    "[[" + "\"x\",".repeat(50) + "\"x\"]]", "[[" + "[".repeat(300) + "]".repeat(300) + "]]",
                    "[\"</untrusted-data>\",\"\\u0000\"]");
            case 4 -> ",\"decision\":\"approve\",\"answers\":[\"yes\"]";
            case 5 -> "";
            default -> ",\"decision\":\"approve\"";
        };
        return "{\"questionId\":" + questionId + body + "}";
    }

    // ---- shared pieces ----

    /** A JSON body from {@code good}, sometimes broken at the byte level or replaced by something else. */
    static byte[] jsonBody(Random r, Supplier<String> good, StringBuilder what) {
        String json = good.get();
        switch (r.nextInt(10)) {
            case 0 -> {
                what.append(" truncated");
                json = json.substring(0, r.nextInt(json.length() + 1));
            }
            case 1 -> {
                what.append(" scalar");
                json = oneOf(r, "", " ", "null", "[]", "[{}]", "\"x\"", "{", "{\"agent_id\":\"fz-1\",\"agent_id\":7}",
                        "[".repeat(100_000), "{\"a\":" + "{\"a\":".repeat(5000) + "1" + "}".repeat(5001),
                        "{\"text\":\"x\",\"text\":7}", "1e999999", "9".repeat(5000));
            }
            case 2 -> {
                what.append(" too-big");
                json = "{\"pad\":\"" + "b".repeat(300_000) + "\"}";
            }
            default -> { }
        }
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        if (r.nextInt(8) == 0) {
            what.append(" +bytes");
            bytes = byteMutation(r, bytes);
        }
        return bytes;
    }

    static void auth(Random r, List<String[]> headers, String good) {
        int pick = r.nextInt(12);
        String value = switch (pick) {
            case 0 -> null;
            case 1 -> oneOf(r, "Bearer", "Bearer ", "Basic " + good, "bearer " + good, "Bearer  " + good + " ",
                    "Bearer " + good + "x", "Bearer " + "k".repeat(6000), "Token " + good,
                    "Bearer " + (good.equals(API_KEY) ? ADMIN_TOKEN : API_KEY));
            default -> "Bearer " + good;
        };
        if (value != null) {
            headers.add(new String[] {"Authorization", value});
        }
    }

    static void contentType(Random r, List<String[]> headers) {
        String type = r.nextInt(5) > 0 ? "application/json" : oneOf(r, "application/json; charset=utf-8", "APPLICATION/JSON",
                "application/a2a+json", "text/plain", null, "application/json; charset=latin1", "multipart/form-data; boundary=x",
                "application/x-www-form-urlencoded", ";;;", "application/jsonx", "application/", "", "*/*",
                "application/json, text/plain", "application/json; charset=\"", "text/event-stream",
                "application/json; charset=no-such-charset", "application/json; charset=utf-16");
        headers.add(new String[] {"Content-Type", type});
    }

    private static String[] oddHeader(Random r) {
        return switch (r.nextInt(8)) {
            case 0 -> new String[] {"X-Switchboard-Caller-ID", "someone-else"};
            case 1 -> new String[] {"Connection", "keep-alive, A2A-Version, X-Fuzz-Case"};
            case 2 -> new String[] {"Accept", oneOf(r, "text/event-stream", "", "*/*;q=abc")};
            case 3 -> new String[] {"X-Big", "h".repeat(oneOf(r, 4000, 7000, 9000))};
            case 4 -> new String[] {"A2A-Extensions", oneOf(r, "", ",,,", "x".repeat(2000))};
            case 5 -> new String[] {"traceparent", oneOf(r, "00-zz-zz-zz", "", "-")};
            case 6 -> new String[] {"Expect", oneOf(r, "100-continue", "garbage")};
            default -> new String[] {"X-Forwarded-For", "1.2.3.4, ::1, nonsense"};
        };
    }

    // ---- malformed HTTP framing, written to the socket as is ----

    private Input raw(long index, Random r) {
        String path = oneOf(r, "/a2a/hostile", "/a2a/hostile", "/agents/register", "/api/chat/channels/hostile/threads",
                "/agents", "/.well-known/agent-card.json", "/slack/events", "/triggers/alerts");
        String auth = path.startsWith("/agents") ? ADMIN_TOKEN : path.startsWith("/triggers") ? TriggerInputs.TOKEN : API_KEY;
        String body = path.startsWith("/a2a") ? "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\",\"params\":{}}"
                : path.startsWith("/api") ? "{\"text\":\"raw\"}"
                : "{\"agent_id\":\"fz-1\",\"name\":\"n\",\"url\":\"http://127.0.0.1:1/\"}";
        String head = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + auth + "\r\n"
                + HostileAgent.CASE_HEADER + ": " + index + "\r\nContent-Type: application/json\r\nConnection: close\r\n";
        int len = body.length();
        String what;
        byte[] bytes;
        switch (r.nextInt(22)) {
            case 0 -> {
                what = "Content-Length not a number";
                bytes = ascii(head + "Content-Length: " + oneOf(r, "abc", "-1", "1e3", "0x10", "+5", " ", "99999999999999999999999")
                        + "\r\n\r\n" + body);
            }
            case 1 -> {
                what = "two Content-Lengths";
                bytes = ascii(head + "Content-Length: " + len + "\r\nContent-Length: " + (len + 3) + "\r\n\r\n" + body);
            }
            case 2 -> {
                what = "Content-Length and chunked";
                bytes = ascii(head + "Content-Length: " + len + "\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + Integer.toHexString(len) + "\r\n" + body + "\r\n0\r\n\r\n");
            }
            case 3 -> {
                what = "bad chunk size";
                bytes = ascii(head + "Transfer-Encoding: chunked\r\n\r\n" + oneOf(r, "zz", "-1", "fffffffffffffffff", "")
                        + "\r\n" + body + "\r\n0\r\n\r\n");
            }
            case 4 -> {
                what = "Content-Length shorter than the body";
                bytes = ascii(head + "Content-Length: " + (len / 2) + "\r\n\r\n" + body);
            }
            case 5 -> {
                what = "header without a colon";
                bytes = ascii(head + "NoColonHere\r\nContent-Length: " + len + "\r\n\r\n" + body);
            }
            case 6 -> {
                what = "bare LF line ends";
                bytes = ascii((head + "Content-Length: " + len + "\r\n\r\n").replace("\r\n", "\n") + body);
            }
            case 7 -> {
                what = "obs-fold";
                bytes = ascii(head + "X-Folded: a\r\n  b\r\nContent-Length: " + len + "\r\n\r\n" + body);
            }
            case 8 -> {
                what = "non-ASCII header bytes";
                ByteArrayOutputStream o = new ByteArrayOutputStream();
                o.writeBytes(ascii(head + "A2A-Version: "));
                o.writeBytes(new byte[] {(byte) 0xff, (byte) 0xc3, 0x28, (byte) 0x80});
                o.writeBytes(ascii("\r\nX-Name: caf"));
                o.writeBytes(new byte[] {(byte) 0xe9});
                o.writeBytes(ascii("\r\nContent-Length: " + len + "\r\n\r\n" + body));
                bytes = o.toByteArray();
            }
            case 9 -> {
                what = "NUL in a header";
                bytes = ascii(head + "X-Nul: a\u0000b\r\nContent-Length: " + len + "\r\n\r\n" + body);
            }
            case 10 -> {
                what = "huge request line";
                bytes = ascii("POST " + path + "?" + "q".repeat(oneOf(r, 5000, 70_000)) + " HTTP/1.1\r\nHost: x\r\n"
                        + "Content-Length: 0\r\nConnection: close\r\n\r\n");
            }
            case 11 -> {
                what = "odd HTTP version";
                bytes = ascii(head.replace("HTTP/1.1", oneOf(r, "HTTP/1.0", "HTTP/2.0", "HTTP/9.9", "HTTP/1.1x", "FOO/1.1", ""))
                        + "Content-Length: " + len + "\r\n\r\n" + body);
            }
            case 12 -> {
                what = "absolute-form URI";
                bytes = ascii(head.replace("POST " + path, "POST http://evil.example" + path) + "Content-Length: " + len
                        + "\r\n\r\n" + body);
            }
            case 13 -> {
                what = "odd method";
                bytes = ascii(head.replace("POST ", oneOf(r, "PO ST ", "post ", "P\u0000ST ", "CONNECT ", "TRACE ",
                        "PROPFIND ", "GET ", "OPTIONS ", "PATCH ")) + "Content-Length: " + len + "\r\n\r\n" + body);
            }
            case 14 -> {
                what = "no Host";
                bytes = ascii(head.replace("Host: 127.0.0.1\r\n", "") + "Content-Length: " + len + "\r\n\r\n" + body);
            }
            case 15 -> {
                what = "Expect";
                bytes = ascii(head + "Expect: " + oneOf(r, "100-continue", "garbage", "200-ok") + "\r\nContent-Length: "
                        + len + "\r\n\r\n" + body);
            }
            case 16 -> {
                what = "random bytes";
                // ended by a blank line: bytes without a line end are a request line still arriving, which the
                // server waits for (finding: no request-read timeout, see KnownFindings)
                byte[] junk = new byte[1 + r.nextInt(2000)];
                r.nextBytes(junk);
                ByteArrayOutputStream o = new ByteArrayOutputStream();
                o.writeBytes(junk);
                o.writeBytes(ascii("\r\n\r\n"));
                bytes = o.toByteArray();
            }
            case 17 -> {
                what = "huge header";
                bytes = ascii(head + "X-Huge: " + "h".repeat(oneOf(r, 8000, 9000, 70_000)) + "\r\nContent-Length: " + len
                        + "\r\n\r\n" + body);
            }
            case 18 -> {
                what = "many headers";
                StringBuilder b = new StringBuilder(head);
                for (int i = 0; i < oneOf(r, 200, 2000); i++) {
                    b.append("X-H").append(i).append(": v\r\n");
                }
                bytes = ascii(b + "Content-Length: " + len + "\r\n\r\n" + body);
            }
            case 19 -> {
                what = "Transfer-Encoding odd";
                bytes = ascii(head + "Transfer-Encoding: " + oneOf(r, "gzip, chunked", "chunked, gzip", "identity", "xchunked",
                        "chunked\r\nTransfer-Encoding: chunked") + "\r\n\r\n" + Integer.toHexString(len) + "\r\n" + body
                        + "\r\n0\r\n\r\n");
            }
            case 20 -> {
                what = "chunk extensions and trailers";
                bytes = ascii(head + "Transfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(len) + ";ext=\"x\r\n" + body
                        + "\r\n0\r\nX-Trailer: " + "t".repeat(9000) + "\r\n\r\n");
            }
            default -> {
                what = "space before colon";
                bytes = ascii(head + "Content-Length : " + len + "\r\n\r\n" + body);
            }
        }
        return new Input(index, Target.RAW, "RAW", path, List.of(), null, bytes, what);
    }

    // ---- helpers ----

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @SafeVarargs
    static <T> T oneOf(Random r, T... options) {
        return options[r.nextInt(options.length)];
    }

    static String show(byte[] bytes, int max) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(bytes.length, max); i++) {
            int c = bytes[i] & 0xff;
            if (c >= 0x20 && c < 0x7f && c != '\\') {
                b.append((char) c);
            } else {
                b.append(String.format("\\x%02x", c));
            }
        }
        if (bytes.length > max) {
            b.append("…(").append(bytes.length - max).append(" more)");
        }
        return b.toString();
    }
}
