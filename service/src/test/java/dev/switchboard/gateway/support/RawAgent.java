package dev.switchboard.gateway.support;

import dev.switchboard.AwaitDefaults;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bare HTTP upstream for what the testkit agent cannot show: exact reply bytes, non-JSON-RPC
 * replies, replies that never end, streams the test writes event by event, and — above all — when
 * the gateway closes its connection to the agent. Not a mock of Switchboard: a fake agent on a real
 * socket, like the testkit's.
 */
public final class RawAgent {

    /** What the agent does with one request, its body fully read. */
    @FunctionalInterface
    public interface Responder {
        void respond(HttpServerRequest request, Buffer body, Exchange exchange);
    }

    /** One request as received, and whether its connection has been closed since. */
    public record Exchange(String method, String path, MultiMap headers, Buffer body, AtomicBoolean connectionClosed,
            AtomicLong bytesWritten, Context context, HttpServerResponse response) {

        public String header(String name) {
            return headers.get(name);
        }

        /** Writes to the response on its own event loop (tests run on other threads). */
        public void write(String text) {
            context.runOnContext(v -> {
                if (!response.closed() && !response.ended()) {
                    response.write(text);
                }
            });
        }

        /** Answers the held request with this JSON body. */
        public void reply(String json) {
            context.runOnContext(v -> {
                if (!response.closed() && !response.ended()) {
                    response.putHeader("Content-Type", "application/json").end(json);
                }
            });
        }

        public void end() {
            context.runOnContext(v -> {
                if (!response.closed() && !response.ended()) {
                    response.end();
                }
            });
        }
    }

    private final HttpServer server;
    private final List<Exchange> exchanges = new ArrayList<>();
    private final BlockingQueue<Exchange> arrivals = new LinkedBlockingQueue<>();
    private volatile Responder responder;

    private RawAgent(HttpServer server, Responder responder) {
        this.server = server;
        this.responder = responder;
    }

    public static Future<RawAgent> start(Vertx vertx, Responder responder) {
        Map<HttpConnection, AtomicBoolean> closed = new ConcurrentHashMap<>();
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0));
        RawAgent agent = new RawAgent(server, responder);
        server.connectionHandler(conn -> {
            AtomicBoolean flag = new AtomicBoolean();
            closed.put(conn, flag);
            conn.closeHandler(v -> flag.set(true));
        });
        server.requestHandler(req -> req.body().onSuccess(body -> {
            AtomicBoolean flag = closed.computeIfAbsent(req.connection(), c -> new AtomicBoolean());
            Exchange exchange = new Exchange(req.method().name(), req.path(),
                    MultiMap.caseInsensitiveMultiMap().addAll(req.headers()), body, flag, new AtomicLong(),
                    Vertx.currentContext(), req.response());
            synchronized (agent) {
                agent.exchanges.add(exchange);
            }
            agent.arrivals.add(exchange);
            agent.responder.respond(req, body, exchange);
        }));
        return server.listen().map(s -> agent);
    }

    public void respondWith(Responder newResponder) {
        this.responder = newResponder;
    }

    public String url() {
        return "http://127.0.0.1:" + server.actualPort() + "/";
    }

    public int port() {
        return server.actualPort();
    }

    public synchronized List<Exchange> exchanges() {
        return List.copyOf(exchanges);
    }

    public synchronized Exchange last() {
        if (exchanges.isEmpty()) {
            throw new IllegalStateException("the raw agent has received nothing");
        }
        return exchanges.get(exchanges.size() - 1);
    }

    /** The next request to arrive (in arrival order), waiting up to {@link AwaitDefaults#WAIT}. */
    public Exchange next() {
        try {
            Exchange e = arrivals.poll(AwaitDefaults.WAIT.toSeconds(), TimeUnit.SECONDS);
            if (e == null) {
                throw new IllegalStateException("no request reached the raw agent within " + AwaitDefaults.WAIT);
            }
            return e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public synchronized void clear() {
        exchanges.clear();
        arrivals.clear();
    }

    public Future<Void> close() {
        return server.close();
    }

    // ---- common responders ----

    /** Answers every POST with these exact bytes. */
    public static Responder fixed(int status, String contentType, String body) {
        return (req, b, ex) -> {
            HttpServerResponse r = req.response().setStatusCode(status);
            if (contentType != null) {
                r.putHeader("Content-Type", contentType);
            }
            r.end(body);
        };
    }

    /** Never answers: no status line, the connection stays open. */
    public static Responder silent() {
        return (req, b, ex) -> { };
    }

    /** Opens an SSE reply (headers only); the test writes the events through the {@link Exchange}. */
    public static Responder openStream() {
        return (req, b, ex) -> req.response().setStatusCode(200).setChunked(true)
                .putHeader("Content-Type", "text/event-stream").putHeader("Cache-Control", "no-cache")
                .writeHead();
    }

    /**
     * Streams {@code total} bytes of a JSON string value in {@code chunk}-sized chunks, following
     * back-pressure and a steady pace, stopping as soon as the connection closes; counts what it wrote.
     */
    public static Responder endless(long total, int chunk) {
        return (req, b, ex) -> {
            HttpServerResponse r = req.response().setStatusCode(200).setChunked(true)
                    .putHeader("Content-Type", "application/json");
            r.write("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"");
            Buffer piece = Buffer.buffer("x".repeat(chunk));
            pump(r, piece, total, ex.bytesWritten());
        };
    }

    /**
     * Writes one piece per millisecond (at most 64 MB/s with the test's pieces), so that how much was
     * written when the gateway hung up says how much it chose to read, not how fast loopback is.
     */
    private static void pump(HttpServerResponse r, Buffer piece, long total, AtomicLong written) {
        if (r.closed() || r.ended()) {
            return;
        }
        if (written.get() >= total) {
            r.end("\"}");
            return;
        }
        if (r.writeQueueFull()) {
            r.drainHandler(v -> pump(r, piece, total, written));
            return;
        }
        r.write(piece);
        written.addAndGet(piece.length());
        Vertx.currentContext().owner().setTimer(1, t -> pump(r, piece, total, written));
    }
}
