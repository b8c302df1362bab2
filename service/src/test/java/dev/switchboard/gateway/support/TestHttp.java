package dev.switchboard.gateway.support;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/**
 * A plain HTTP/1.1 client for tests (Vert.x's, which sends any header it is given, hop-by-hop ones
 * included). Headers are given as name/value pairs; {@code Content-Type: application/json} is added to
 * bodies unless the pairs name a Content-Type (a null value leaves the header out).
 */
public final class TestHttp implements AutoCloseable {

    private final HttpClientAgent client;
    private final String base;

    public TestHttp(Vertx vertx, String base) {
        this(vertx, base, new HttpClientOptions().setKeepAlive(true).setMaxInitialLineLength(8192));
    }

    /** A client that opens a new connection for every call: calls land on the server's event loops in turn. */
    public static TestHttp newConnectionPerCall(Vertx vertx, String base) {
        return new TestHttp(vertx, base, new HttpClientOptions().setKeepAlive(false).setMaxInitialLineLength(8192));
    }

    private TestHttp(Vertx vertx, String base, HttpClientOptions options) {
        this.client = vertx.createHttpClient(options, new PoolOptions().setHttp1MaxSize(512));
        this.base = base;
    }

    public String base() {
        return base;
    }

    /** POSTs a JSON-RPC body to {@code /a2a/{agentId}}. */
    public Reply rpc(String agentId, String body, String... headers) {
        return post("/a2a/" + agentId, body, headers);
    }

    public Reply post(String path, String body, String... headers) {
        return Wait.on(send(HttpMethod.POST, path, body, headers));
    }

    public Reply get(String path, String... headers) {
        return Wait.on(send(HttpMethod.GET, path, null, headers));
    }

    public Reply delete(String path, String... headers) {
        return Wait.on(send(HttpMethod.DELETE, path, null, headers));
    }

    public CompletableFuture<Reply> postAsync(String path, String body, String... headers) {
        return send(HttpMethod.POST, path, body, headers).toCompletionStage().toCompletableFuture();
    }

    public Future<Reply> send(HttpMethod method, String path, String body, String... headers) {
        RequestOptions options = new RequestOptions().setMethod(method).setAbsoluteURI(base + path)
                .setHeaders(headers(body != null, headers));
        return client.request(options).compose(req -> {
            Future<io.vertx.core.http.HttpClientResponse> sent = body == null ? req.send()
                    : req.send(Buffer.buffer(body.getBytes(StandardCharsets.UTF_8)));
            return sent.compose(resp -> resp.body().map(b -> new Reply(resp.statusCode(), resp.headers(), b)));
        });
    }

    /** Opens a call whose reply is read as it arrives (SSE), see {@link SseCall}. */
    public SseCall stream(String path, String body, String... headers) {
        return stream(HttpMethod.POST, path, body, headers);
    }

    /** Opens a {@code GET} whose reply is read as it arrives (KubeMQ's {@code GET /a2a/{id}/stream}). */
    public SseCall streamGet(String path, String... headers) {
        return stream(HttpMethod.GET, path, null, headers);
    }

    private SseCall stream(HttpMethod method, String path, String body, String... headers) {
        RequestOptions options = new RequestOptions().setMethod(method).setAbsoluteURI(base + path)
                .setHeaders(headers(body != null, headers));
        SseCall call = new SseCall();
        client.request(options).onComplete(ar -> {
            if (ar.failed()) {
                call.failed(ar.cause());
                return;
            }
            call.start(ar.result(), body == null ? null : Buffer.buffer(body.getBytes(StandardCharsets.UTF_8)));
        });
        return call;
    }

    static MultiMap headers(boolean hasBody, String... pairs) {
        if (pairs.length % 2 != 0) {
            throw new IllegalArgumentException("headers come in name/value pairs");
        }
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        boolean typeGiven = false;
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i].equalsIgnoreCase("Content-Type")) {
                typeGiven = true;
            }
            if (pairs[i + 1] != null) {
                headers.add(pairs[i], pairs[i + 1]);
            }
        }
        if (hasBody && !typeGiven) {
            headers.set("Content-Type", "application/json");
        }
        return headers;
    }

    @Override
    public void close() {
        client.close();
    }
}
