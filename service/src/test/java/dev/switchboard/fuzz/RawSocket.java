package dev.switchboard.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes bytes no HTTP client would send to a fresh connection and reads the first answer: status,
 * headers and body (by Content-Length, chunked, or to the close). A close without an answer is
 * reported as status -1; no answer within the timeout as a {@link SocketTimeoutException}.
 */
final class RawSocket {

    private RawSocket() {}

    static Reply exchange(int port, byte[] request, int timeoutMillis) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(timeoutMillis);
            OutputStream out = s.getOutputStream();
            try {
                out.write(request);
                out.flush();
            } catch (IOException e) {
                // the server may answer (and close) before reading everything we send
            }
            InputStream in = s.getInputStream();
            while (true) {
                Reply r = readOne(in);
                if (r.status() != 100) {
                    return r;
                }
            }
        }
    }

    /** Writes the start of a request and closes the connection at once: a client that gives up on its own body. */
    static Reply abandon(int port, byte[] request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            try {
                s.getOutputStream().write(request);
                s.getOutputStream().flush();
            } catch (IOException e) {
                // answered and closed first: as good
            }
        }
        return new Reply(-1, Map.of(), new byte[0], "abandoned by the client");
    }

    private static Reply readOne(InputStream in) throws IOException {
        String statusLine;
        try {
            statusLine = line(in);
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException e) {
            return new Reply(-1, Map.of(), new byte[0], "closed: " + e.getMessage());
        }
        if (statusLine == null) {
            return new Reply(-1, Map.of(), new byte[0], "closed without an answer");
        }
        String[] parts = statusLine.split(" ", 3);
        int status = parts.length > 1 && parts[1].matches("\\d{3}") ? Integer.parseInt(parts[1]) : -2;
        Map<String, String> headers = new TreeMap<>();
        for (String h = line(in); h != null && !h.isEmpty(); h = line(in)) {
            int colon = h.indexOf(':');
            if (colon > 0) {
                headers.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
            }
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        String length = headers.get("content-length");
        if (status == 100 || status == 204 || status == 304) {
            return new Reply(status, headers, new byte[0], null);
        }
        try {
            if (length != null) {
                body.write(in.readNBytes(Integer.parseInt(length)));
            } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                for (String size = line(in); size != null; size = line(in)) {
                    int n = Integer.parseInt(size.split(";")[0].trim(), 16);
                    if (n == 0) {
                        break;
                    }
                    body.write(in.readNBytes(n));
                    line(in);
                }
            } else {
                body.write(in.readAllBytes());
            }
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException | NumberFormatException e) {
            // a body cut short still tells us the status
        }
        return new Reply(status, headers, body.toByteArray(), null);
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                String s = b.toString(StandardCharsets.ISO_8859_1);
                return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
            }
            b.write(c);
        }
        return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
    }
}
