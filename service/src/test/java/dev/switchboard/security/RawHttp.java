package dev.switchboard.security;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A caller on a bare socket, for what a well-behaved HTTP client will not do: declare a body and not
 * send it, send half of one and vanish, send a forged {@code Host}. Reads the reply up to its
 * declared length (or the connection's end).
 */
final class RawHttp implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    private RawHttp(Socket socket) throws IOException {
        this.socket = socket;
        this.socket.setSoTimeout(30_000);
        this.out = socket.getOutputStream();
        this.in = socket.getInputStream();
    }

    /** Connects to the host and port of a base URL such as {@code http://127.0.0.1:8080}. */
    static RawHttp connect(String base) {
        URI u = URI.create(base);
        try {
            return new RawHttp(new Socket(u.getHost(), u.getPort()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends the request head (request line and headers, CRLF-separated, no final blank line needed). */
    RawHttp head(String requestLine, String... headers) {
        StringBuilder b = new StringBuilder(requestLine).append("\r\n");
        for (String h : headers) {
            b.append(h).append("\r\n");
        }
        b.append("\r\n");
        return write(b.toString());
    }

    RawHttp write(String text) {
        try {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One HTTP/1.1 chunk of a chunked body. */
    RawHttp chunk(String data) {
        return write(Integer.toHexString(data.getBytes(StandardCharsets.UTF_8).length) + "\r\n" + data + "\r\n");
    }

    /** The status line, headers and body of the reply (body read to its Content-Length). */
    Response read() {
        try {
            String head = readHead();
            int status = Integer.parseInt(head.split(" ", 3)[1]);
            long length = -1;
            for (String line : head.split("\r\n")) {
                if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                    length = Long.parseLong(line.substring(15).trim());
                }
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            while (length < 0 || body.size() < length) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                body.write(b);
            }
            return new Response(status, head, body.toString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String readHead() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed before a reply; got: " + head);
            }
            head.write(b);
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
    }

    /** A reply as read off the socket. */
    record Response(int status, String head, String body) {
        String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }
}
