package dev.switchboard.gateway.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.AwaitDefaults;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A call whose reply the test reads while it arrives: the raw text so far, the SSE frames (each
 * ending at a blank line) in arrival order, whether the reply has ended, and a way to hang up.
 */
public final class SseCall {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final CompletableFuture<HttpClientResponse> head = new CompletableFuture<>();
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private final StringBuilder raw = new StringBuilder();
    private final List<String> frames = new ArrayList<>();
    private volatile HttpClientRequest request;
    private volatile boolean endedNormally;
    private int scanned;

    void start(HttpClientRequest req, Buffer body) {
        this.request = req;
        req.connection().closeHandler(v -> ended.complete(null));
        (body == null ? req.send() : req.send(body)).onComplete(ar -> {
            if (ar.failed()) {
                failed(ar.cause());
                return;
            }
            HttpClientResponse resp = ar.result();
            resp.handler(this::append);
            resp.exceptionHandler(e -> ended.complete(null));
            resp.endHandler(v -> {
                endedNormally = true;
                ended.complete(null);
            });
            head.complete(resp);
        });
    }

    void failed(Throwable cause) {
        head.completeExceptionally(cause);
        ended.complete(null);
    }

    private synchronized void append(Buffer chunk) {
        raw.append(chunk.toString().replace("\r\n", "\n"));
        int boundary;
        while ((boundary = raw.indexOf("\n\n", scanned)) >= 0) {
            frames.add(raw.substring(scanned, boundary + 2));
            scanned = boundary + 2;
        }
    }

    public HttpClientResponse response() {
        try {
            return head.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("no response headers: " + e, e);
        }
    }

    public int status() {
        return response().statusCode();
    }

    public String header(String name) {
        return response().getHeader(name);
    }

    public synchronized String raw() {
        return raw.toString();
    }

    /** Every complete frame so far, comments (keepalives) included. */
    public synchronized List<String> frames() {
        return List.copyOf(frames);
    }

    /** The frames that carry data (not comment-only frames). */
    public synchronized List<String> dataFrames() {
        return frames.stream().filter(f -> f.lines().anyMatch(l -> l.startsWith("data:"))).toList();
    }

    /** The JSON of each data frame (its data lines joined). */
    public List<JsonNode> events() {
        List<JsonNode> out = new ArrayList<>();
        for (String frame : dataFrames()) {
            StringBuilder data = new StringBuilder();
            frame.lines().filter(l -> l.startsWith("data:")).forEach(l -> {
                if (data.length() > 0) {
                    data.append('\n');
                }
                data.append(l.substring(5).stripLeading());
            });
            try {
                out.add(JSON.readTree(data.toString()));
            } catch (IOException e) {
                throw new UncheckedIOException("event data is not JSON: " + data, e);
            }
        }
        return out;
    }

    public synchronized long keepalives() {
        return frames.stream().filter(f -> f.startsWith(": keepalive")).count();
    }

    public boolean isEnded() {
        return ended.isDone();
    }

    /** True when the reply ended with its last chunk (not by a dropped connection). */
    public boolean endedNormally() {
        return endedNormally;
    }

    public void awaitEnd() {
        try {
            ended.get(AwaitDefaults.WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the reply did not end within " + AwaitDefaults.WAIT + "; got so far: " + raw(), e);
        }
    }

    /** Cancels just this call: an HTTP/2 RST_STREAM, the connection stays open. */
    public void reset() {
        request.reset();
    }

    public io.vertx.core.http.HttpVersion version() {
        return response().version();
    }

    /** Hangs up: closes the connection the call runs on. */
    public void disconnect() {
        request.connection().close();
    }
}
