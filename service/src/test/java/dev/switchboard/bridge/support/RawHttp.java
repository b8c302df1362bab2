package dev.switchboard.bridge.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, with exactly the headers a test gives: a forged {@code Host}, a browser's
 * {@code Origin} and {@code Sec-Fetch-Site}, a form's {@code text/plain}. (The JDK's client will not send a
 * Host it did not derive from the URL.) One request per connection.
 */
public final class RawHttp {

    /** A response: status, headers (lower-case names) and body (chunked bodies decoded). */
    public record Response(int status, Map<String, String> headers, String body) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final String host;
    private final int port;

    public RawHttp(String baseUrl) {
        URI u = URI.create(baseUrl);
        this.host = u.getHost();
        this.port = u.getPort();
    }

    /** The Host header a browser would send for this server. */
    public String ownHost() {
        return host + ":" + port;
    }

    public String ownOrigin() {
        return "http://" + ownHost();
    }

    public Response get(String path, Map<String, String> headers) {
        return send("GET", path, headers, null);
    }

    public Response post(String path, Map<String, String> headers, String body) {
        return send("POST", path, headers, body);
    }

    /** Sends one request; {@code headers} may set Host (else the server's own). */
    public Response send(String method, String path, Map<String, String> headers, String body) {
        byte[] payload = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
        try (Socket socket = open()) {
            OutputStream out = socket.getOutputStream();
            out.write(head(method, path, headers, payload).getBytes(StandardCharsets.UTF_8));
            if (payload != null) {
                out.write(payload);
            }
            out.flush();
            return read(socket.getInputStream());
        } catch (IOException e) {
            throw new AssertionError(method + " " + path + " failed: " + e, e);
        }
    }

    /** Opens a connection to the server (for a test that holds a stream open, or leaves early). */
    public Socket open() throws IOException {
        Socket socket = new Socket(host, port);
        socket.setSoTimeout(15_000);
        return socket;
    }

    /** The request line and headers, ending with the blank line. */
    public String head(String method, String path, Map<String, String> headers, byte[] payload) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Host", ownHost());
        h.putAll(headers);
        h.put("Connection", "close");
        if (payload != null) {
            h.put("Content-Length", String.valueOf(payload.length));
        }
        StringBuilder sb = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n");
        h.forEach((k, v) -> sb.append(k).append(": ").append(v).append("\r\n"));
        return sb.append("\r\n").toString();
    }

    private static Response read(InputStream in) throws IOException {
        byte[] all = in.readAllBytes();
        String text = new String(all, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new IOException("no complete response head: " + text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        byte[] rest = java.util.Arrays.copyOfRange(all, end + 4, all.length);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            rest = unchunk(rest);
        }
        return new Response(status, headers, new String(rest, StandardCharsets.UTF_8));
    }

    private static byte[] unchunk(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (i < body.length) {
            int lineEnd = i;
            while (lineEnd + 1 < body.length && !(body[lineEnd] == '\r' && body[lineEnd + 1] == '\n')) {
                lineEnd++;
            }
            String size = new String(body, i, lineEnd - i, StandardCharsets.ISO_8859_1).split(";")[0].trim();
            int n = size.isEmpty() ? 0 : Integer.parseInt(size, 16);
            if (n == 0) {
                break;
            }
            out.write(body, lineEnd + 2, Math.min(n, body.length - lineEnd - 2));
            i = lineEnd + 2 + n + 2;
        }
        return out.toByteArray();
    }
}
