import io.vertx.core.AbstractVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bench-only upstream agent (not part of the product). Answers every POST with a fixed ~1 KB
 * JSON-RPC result, except {@code message/stream} calls, which get an SSE response with one event and
 * are then held open, idle, until the caller goes away. {@code GET /} answers "ok" (readiness probe).
 *
 * <p>Usage: {@code java -cp switchboard-app.jar:classes Upstream PORT [EVENT_LOOPS]}
 */
public final class Upstream {

    static final AtomicInteger OPEN_STREAMS = new AtomicInteger();

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        int loops = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        Buffer reply = Buffer.buffer(replyJson().getBytes(StandardCharsets.UTF_8));
        Buffer firstEvent = Buffer.buffer(("data: " + eventJson() + "\n\n").getBytes(StandardCharsets.UTF_8));
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops));
        vertx.deployVerticle(() -> new AbstractVerticle() {
            @Override
            public void start() {
                vertx.createHttpServer(new HttpServerOptions().setPort(port).setHost("127.0.0.1")
                                .setAcceptBacklog(8192).setTcpNoDelay(true))
                        .requestHandler(req -> {
                            HttpServerResponse res = req.response();
                            if (!"POST".equals(req.method().name())) {
                                res.putHeader("Content-Type", "text/plain").end("ok");
                                return;
                            }
                            req.body().onSuccess(body -> {
                                if (isStream(body)) {
                                    OPEN_STREAMS.incrementAndGet();
                                    res.setChunked(true)
                                            .putHeader("Content-Type", "text/event-stream")
                                            .putHeader("Cache-Control", "no-cache");
                                    res.write(firstEvent);
                                    res.closeHandler(v -> OPEN_STREAMS.decrementAndGet());
                                } else {
                                    res.putHeader("Content-Type", "application/json").end(reply);
                                }
                            });
                        })
                        .listen()
                        .onFailure(e -> {
                            e.printStackTrace();
                            System.exit(1);
                        });
            }
        }, new DeploymentOptions().setInstances(loops))
                .onSuccess(id -> System.out.println("upstream listening on 127.0.0.1:" + port
                        + " (" + loops + " event loops, reply " + reply.length() + " bytes)"))
                .onFailure(e -> {
                    e.printStackTrace();
                    System.exit(1);
                });
    }

    /** A cheap test: the method name appears in the first bytes of the bench's stream request. */
    private static boolean isStream(Buffer body) {
        int n = Math.min(body.length(), 200);
        return body.getString(0, n).contains("\"message/stream\"");
    }

    /** A completed Task with one text artifact, padded so that the whole body is ~1 KB. */
    static String replyJson() {
        String head = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"task\",\"id\":\"task-0001\","
                + "\"contextId\":\"ctx-0001\",\"status\":{\"state\":\"completed\","
                + "\"timestamp\":\"2026-01-01T00:00:00Z\"},\"artifacts\":[{\"artifactId\":\"a-1\","
                + "\"parts\":[{\"kind\":\"text\",\"text\":\"";
        String tail = "\"}]}]}}";
        return head + pad(1024 - head.length() - tail.length()) + tail;
    }

    static String eventJson() {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"status-update\",\"taskId\":\"task-0001\","
                + "\"contextId\":\"ctx-0001\",\"status\":{\"state\":\"working\"},\"final\":false}}";
    }

    static String pad(int n) {
        StringBuilder sb = new StringBuilder(n);
        String words = "lorem ipsum dolor sit amet ";
        while (sb.length() < n) {
            sb.append(words);
        }
        sb.setLength(Math.max(0, n));
        return sb.toString();
    }
}
