package dev.switchboard.gateway;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import io.netty.buffer.ByteBuf;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The few members of a JSON-RPC request the gateway routes on, read with Jackson's streaming
 * parser so the body is validated without building a tree; the body itself is forwarded as it came.
 *
 * @param id the request id as a JSON value (string, number or null node); Java null when absent (a notification)
 * @param method the method name, never empty
 * @param timeoutSeconds {@code params.configuration.timeout} when it is a positive number, else null
 */
public record RoutingFields(JsonNode id, String method, Double timeoutSeconds) {

    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(200).build())
            .build();

    public boolean isNotification() {
        return id == null;
    }

    /** Parses and validates; throws {@link GatewayException} with -32700 or -32600 naming the problem. */
    public static RoutingFields parse(byte[] body) {
        return parse(body, 0, body.length);
    }

    /** The body's routing fields, read from its backing array when it has one (no copy). */
    public static RoutingFields parse(Buffer body) {
        ByteBuf bytes = ((BufferInternal) body).getByteBuf();
        if (bytes.hasArray()) {
            return parse(bytes.array(), bytes.arrayOffset() + bytes.readerIndex(), bytes.readableBytes());
        }
        return parse(body.getBytes());
    }

    /**
     * Parses and validates bytes [offset, offset + length). A well-formed request is read by {@link #scan} in one
     * allocation-free pass; anything it is unsure of, every invalid request included, by Jackson, whose answer
     * and error messages stand.
     */
    public static RoutingFields parse(byte[] body, int offset, int length) {
        RoutingFields fast = scan(body, offset, length);
        return fast != null ? fast : parseWithJackson(body, offset, length);
    }

    /**
     * The fast path: the routing fields of a valid request whose routing members are plain (unescaped) and appear
     * once; null for anything else, which Jackson then reads. One pass over the body: {@code params} is validated
     * by the same walk that finds its {@code configuration.timeout}.
     */
    static RoutingFields scan(byte[] body, int offset, int length) {
        JsonScan s = new JsonScan(body, offset, length);
        int i = s.ws(offset);
        if (i >= s.end || body[i] != '{') {
            return null;
        }
        boolean jsonrpc20 = false;
        boolean jsonrpcSeen = false;
        JsonNode id = null;
        boolean idSeen = false;
        String method = null;
        boolean paramsSeen = false;
        double timeout = Double.NaN;
        i = s.ws(i + 1);
        if (i < s.end && body[i] == '}') {
            return null; // nothing to route on: Jackson names what is missing
        }
        while (true) {
            if (i >= s.end || body[i] != '"') {
                return null;
            }
            int keyStart = i;
            i = s.string(i);
            if (i == JsonScan.UNSURE || !s.plain(keyStart, i)) {
                return null;
            }
            int keyEnd = i;
            i = s.ws(i);
            if (i >= s.end || body[i] != ':') {
                return null;
            }
            int v = s.ws(i + 1);
            int vEnd;
            boolean isParams = s.is(keyStart, keyEnd, "params");
            if (isParams) {
                if (paramsSeen) {
                    return null;
                }
                paramsSeen = true;
            }
            if (isParams && v < s.end && body[v] == '{') {
                Params params = new Params();
                vEnd = params.walk(s, v);
                timeout = params.timeout;
            } else {
                vEnd = s.value(v, 1);
            }
            if (vEnd == JsonScan.UNSURE) {
                return null;
            }
            if (isParams) {
                // read on the way (an object's timeout), or nothing to read (any other value)
            } else if (s.is(keyStart, keyEnd, "jsonrpc")) {
                if (jsonrpcSeen || body[v] != '"' || !s.plain(v, vEnd)) {
                    return null;
                }
                jsonrpcSeen = true;
                jsonrpc20 = s.is(v, vEnd, "2.0");
            } else if (s.is(keyStart, keyEnd, "id")) {
                if (idSeen) {
                    return null;
                }
                idSeen = true;
                byte c = body[v];
                if (c == '"') {
                    if (!s.plain(v, vEnd)) {
                        return null;
                    }
                    id = TextNode.valueOf(new String(body, v + 1, vEnd - v - 2, StandardCharsets.UTF_8));
                } else if (c == 'n') {
                    id = NullNode.getInstance();
                } else if ((c == '-' || (c >= '0' && c <= '9')) && s.integral(v, vEnd) && vEnd - v <= 18) {
                    id = LongNode.valueOf(integer(body, v, vEnd));
                } else {
                    return null;
                }
            } else if (s.is(keyStart, keyEnd, "method")) {
                if (method != null || body[v] != '"' || !s.plain(v, vEnd)) {
                    return null;
                }
                method = methodName(s, v, vEnd);
            }
            i = s.ws(vEnd);
            if (i >= s.end) {
                return null;
            }
            if (body[i] == '}') {
                break;
            }
            if (body[i] != ',') {
                return null;
            }
            i = s.ws(i + 1);
        }
        if (s.ws(i + 1) != s.end || !jsonrpc20 || method == null || method.isBlank()) {
            return null; // trailing content or an invalid request: Jackson names the problem
        }
        return new RoutingFields(id, method, timeout > 0 && Double.isFinite(timeout) ? timeout : null);
    }

    /** The A2A method names, either version: a request naming one gets this string, not a copy of its bytes. */
    private static final String[] KNOWN_METHODS = java.util.Arrays.stream(dev.switchboard.protocol.A2aMethod.values())
            .flatMap(m -> java.util.stream.Stream.of(m.v10Name(), m.v03Name()))
            .filter(java.util.Objects::nonNull)
            .toArray(String[]::new);

    /** The text of the plain string at [v, vEnd) (quotes included). */
    private static String methodName(JsonScan s, int v, int vEnd) {
        for (String known : KNOWN_METHODS) {
            if (s.is(v, vEnd, known)) {
                return known;
            }
        }
        return new String(s.b, v + 1, vEnd - v - 2, StandardCharsets.UTF_8);
    }

    /** The integer at [v, vEnd): at most 18 characters, sign included, so it fits a long. */
    private static long integer(byte[] b, int v, int vEnd) {
        boolean negative = b[v] == '-';
        long n = 0;
        for (int k = negative ? v + 1 : v; k < vEnd; k++) {
            n = n * 10 + (b[k] - '0');
        }
        return negative ? -n : n;
    }

    /**
     * A walk over the {@code params} object that validates it, as {@link JsonScan#value} would, and reads
     * {@code configuration.timeout} on the way, as the Jackson path reads it: {@link #timeout} stays NaN when absent
     * or not a number. The walk is unsure (declines) of a repeated or escaped member name at either level.
     */
    private static final class Params {
        double timeout = Double.NaN;
        private boolean configurationSeen;

        /** The index after the params object at i (at its brace), or {@link JsonScan#UNSURE}. */
        int walk(JsonScan s, int i) {
            return members(s, i, 2, false);
        }

        /**
         * The members of the object at i (at depth 2 for params, 3 for its configuration), each value validated
         * by {@link JsonScan#value}; an object-valued {@code configuration} of params is walked the same way.
         */
        private int members(JsonScan s, int i, int depth, boolean inConfiguration) {
            byte[] b = s.b;
            boolean timeoutSeen = false;
            i = s.ws(i + 1);
            if (i < s.end && b[i] == '}') {
                return i + 1;
            }
            while (true) {
                if (i >= s.end || b[i] != '"') {
                    return JsonScan.UNSURE;
                }
                int k = i;
                i = s.string(i);
                if (i == JsonScan.UNSURE || !s.plain(k, i)) {
                    return JsonScan.UNSURE;
                }
                int keyEnd = i;
                i = s.ws(i);
                if (i >= s.end || b[i] != ':') {
                    return JsonScan.UNSURE;
                }
                int v = s.ws(i + 1);
                int vEnd;
                if (!inConfiguration && v < s.end && b[v] == '{' && s.is(k, keyEnd, "configuration")) {
                    if (configurationSeen) {
                        return JsonScan.UNSURE;
                    }
                    configurationSeen = true;
                    vEnd = members(s, v, depth + 1, true);
                } else {
                    vEnd = s.value(v, depth);
                    if (vEnd != JsonScan.UNSURE && inConfiguration && s.is(k, keyEnd, "timeout")) {
                        if (timeoutSeen) {
                            return JsonScan.UNSURE;
                        }
                        timeoutSeen = true;
                        byte c = b[v];
                        if (c == '-' || (c >= '0' && c <= '9')) {
                            timeout = Double.parseDouble(new String(b, v, vEnd - v, StandardCharsets.US_ASCII));
                        }
                    }
                }
                if (vEnd == JsonScan.UNSURE) {
                    return JsonScan.UNSURE;
                }
                i = s.ws(vEnd);
                if (i >= s.end) {
                    return JsonScan.UNSURE;
                }
                if (b[i] == '}') {
                    return i + 1;
                }
                if (b[i] != ',') {
                    return JsonScan.UNSURE;
                }
                i = s.ws(i + 1);
            }
        }
    }

    static RoutingFields parseWithJackson(byte[] body, int offset, int length) {
        try (JsonParser p = JSON.createParser(body, offset, length)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw invalidJson("empty body");
            }
            if (first == JsonToken.START_ARRAY) {
                skipRest(p);
                throw invalid(null, "batch requests are not supported: send one JSON-RPC object per request");
            }
            if (first != JsonToken.START_OBJECT) {
                skipRest(p);
                throw invalid(null, "request must be a JSON object");
            }
            String jsonrpc = null;
            boolean jsonrpcSeen = false;
            JsonNode id = null;
            String idProblem = null;
            String method = null;
            boolean methodSeen = false;
            Double timeout = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "jsonrpc" -> {
                        jsonrpcSeen = true;
                        jsonrpc = value == JsonToken.VALUE_STRING ? p.getText() : null;
                        p.skipChildren();
                    }
                    case "id" -> {
                        switch (value) {
                            case VALUE_STRING -> id = JsonNodeFactory.instance.textNode(p.getText());
                            case VALUE_NUMBER_INT -> id = p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                                    ? JsonNodeFactory.instance.numberNode(p.getBigIntegerValue())
                                    : JsonNodeFactory.instance.numberNode(p.getLongValue());
                            case VALUE_NULL -> id = NullNode.getInstance();
                            default -> {
                                idProblem = "id must be a string, an integer or null";
                                p.skipChildren();
                            }
                        }
                    }
                    case "method" -> {
                        methodSeen = true;
                        method = value == JsonToken.VALUE_STRING ? p.getText() : null;
                        p.skipChildren();
                    }
                    case "params" -> timeout = value == JsonToken.START_OBJECT ? readTimeout(p) : skip(p);
                    default -> p.skipChildren();
                }
            }
            if (p.nextToken() != null) {
                throw invalidJson("unexpected content after the JSON object");
            }
            if (idProblem != null) {
                throw invalid(null, idProblem);
            }
            if (!jsonrpcSeen) {
                throw invalid(id, "missing jsonrpc field: it must be \"2.0\"");
            }
            if (!"2.0".equals(jsonrpc)) {
                throw invalid(id, "jsonrpc must be \"2.0\"");
            }
            if (!methodSeen) {
                throw invalid(id, "missing method field");
            }
            if (method == null) {
                throw invalid(id, "method must be a string");
            }
            if (method.isBlank()) {
                throw invalid(id, "method must not be empty");
            }
            return new RoutingFields(id, method, timeout);
        } catch (JsonParseException e) {
            // where, not what the parser said: its messages quote input and name its internals
            throw e.getLocation() == null ? invalidJson("malformed")
                    : new GatewayException(null, JsonRpcError.PARSE_ERROR, "parse error: invalid JSON at line "
                            + e.getLocation().getLineNr() + " column " + e.getLocation().getColumnNr(),
                            GatewayException.Kind.REQUEST);
        } catch (IOException e) {
            throw invalidJson("unreadable");
        }
    }

    /** Inside params: finds configuration.timeout, skipping everything else. */
    private static Double readTimeout(JsonParser p) throws IOException {
        Double timeout = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            if (field.equals("configuration") && value == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String inner = p.currentName();
                    JsonToken v = p.nextToken();
                    if (inner.equals("timeout") && v.isNumeric()) {
                        double seconds = p.getDoubleValue();
                        timeout = seconds > 0 && Double.isFinite(seconds) ? seconds : null;
                    } else {
                        p.skipChildren();
                    }
                }
            } else {
                p.skipChildren();
            }
        }
        return timeout;
    }

    private static Double skip(JsonParser p) throws IOException {
        p.skipChildren();
        return null;
    }

    /** Reads to the end so that invalid JSON is reported as such even when the shape is also wrong. */
    private static void skipRest(JsonParser p) throws IOException {
        p.skipChildren();
        if (p.nextToken() != null) {
            throw invalidJson("unexpected content after the JSON value");
        }
    }

    private static GatewayException invalidJson(String detail) {
        return new GatewayException(null, JsonRpcError.PARSE_ERROR, "parse error: invalid JSON (" + detail + ")",
                GatewayException.Kind.REQUEST);
    }

    private static GatewayException invalid(JsonNode id, String detail) {
        return new GatewayException(id, JsonRpcError.INVALID_REQUEST, "invalid request: " + detail,
                GatewayException.Kind.REQUEST);
    }
}
