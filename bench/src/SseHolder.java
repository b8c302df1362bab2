import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bench-only client that holds N idle SSE streams open through the gateway. Each stream is one
 * {@code message/stream} call on its own HTTP/1.1 connection; it counts as open once its first event
 * has arrived (so the gateway really relays it). Commands on stdin, one per line:
 * <ul>
 *   <li>{@code open N}: opens streams until N are open in total; prints {@code OPENED n failed=f lost=l}</li>
 *   <li>{@code status}: prints {@code STATUS open=n lost=l}</li>
 *   <li>{@code close}: closes every stream; prints {@code CLOSED}</li>
 * </ul>
 * Usage: {@code SseHolder URL [WINDOW]}; WINDOW is how many opens are in progress at once (default 200).
 */
public final class SseHolder {

    static final String BODY = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/stream\",\"params\":{\"message\":"
            + "{\"kind\":\"message\",\"role\":\"user\",\"messageId\":\"m-1\",\"parts\":[{\"kind\":\"text\",\"text\":\"hold\"}]}}}";

    static volatile boolean closing;

    public static void main(String[] args) throws Exception {
        URI uri = URI.create(args[0]);
        int window = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        HttpClientAgent client = vertx.httpClientBuilder()
                .with(new HttpClientOptions().setKeepAlive(true).setIdleTimeout(0).setConnectTimeout(30_000))
                .with(new PoolOptions().setHttp1MaxSize(100_000).setMaxWaitQueueSize(-1))
                .build();
        Context ctx = vertx.getOrCreateContext();
        RequestOptions opts = new RequestOptions().setMethod(HttpMethod.POST).setHost(uri.getHost())
                .setPort(uri.getPort()).setURI(uri.getRawPath())
                .putHeader("Content-Type", "application/json").putHeader("Accept", "text/event-stream");
        Buffer body = Buffer.buffer(BODY);
        List<HttpConnection> connections = new ArrayList<>();
        AtomicInteger open = new AtomicInteger();
        AtomicInteger lost = new AtomicInteger();

        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            String[] cmd = line.trim().split("\\s+");
            switch (cmd[0]) {
                case "open" -> {
                    int target = Integer.parseInt(cmd[1]);
                    CompletableFuture<int[]> result = new CompletableFuture<>();
                    ctx.runOnContext(v -> new Opener(client, opts, body, connections, open, lost, target, window, result).pump());
                    int[] r = result.get();
                    System.out.println("OPENED " + open.get() + " failed=" + r[0] + " lost=" + lost.get());
                }
                case "status" -> System.out.println("STATUS open=" + open.get() + " lost=" + lost.get());
                case "close" -> {
                    closing = true;
                    CompletableFuture<Void> closed = new CompletableFuture<>();
                    ctx.runOnContext(v -> {
                        for (HttpConnection c : connections) {
                            c.close();
                        }
                        connections.clear();
                        open.set(0);
                        closed.complete(null);
                    });
                    closed.get();
                    System.out.println("CLOSED");
                }
                case "quit" -> {
                    vertx.close();
                    System.exit(0);
                }
                default -> System.out.println("ERROR unknown command " + line);
            }
            System.out.flush();
        }
        System.exit(0);
    }

    /** Runs on the client's event loop: keeps WINDOW opens in flight until TARGET streams are open. */
    static final class Opener {
        final HttpClientAgent client;
        final RequestOptions opts;
        final Buffer body;
        final List<HttpConnection> connections;
        final AtomicInteger open;
        final AtomicInteger lost;
        final int target;
        final int window;
        final CompletableFuture<int[]> result;
        int inFlight;
        int failed;
        boolean reported;

        Opener(HttpClientAgent client, RequestOptions opts, Buffer body, List<HttpConnection> connections,
                AtomicInteger open, AtomicInteger lost, int target, int window, CompletableFuture<int[]> result) {
            this.client = client;
            this.opts = opts;
            this.body = body;
            this.connections = connections;
            this.open = open;
            this.lost = lost;
            this.target = target;
            this.window = window;
            this.result = result;
        }

        void pump() {
            if (failed > Math.max(50, target / 20)) {
                report();
                return;
            }
            while (open.get() + inFlight < target && inFlight < window) {
                inFlight++;
                openOne();
            }
            if (open.get() >= target && inFlight == 0) {
                report();
            }
        }

        void report() {
            if (!reported) {
                reported = true;
                result.complete(new int[] {failed});
            }
        }

        void openOne() {
            boolean[] settled = {false};
            client.request(opts).compose(req -> req.send(body)).onComplete(ar -> {
                if (ar.failed()) {
                    settle(settled, false, "request: " + ar.cause());
                    return;
                }
                HttpClientResponse res = ar.result();
                String type = res.getHeader("Content-Type");
                if (res.statusCode() != 200 || type == null || !type.startsWith("text/event-stream")) {
                    res.body().onComplete(b -> settle(settled, false, "HTTP " + res.statusCode() + " "
                            + type + " " + (b.succeeded() ? b.result().toString() : "")));
                    return;
                }
                HttpConnection conn = res.request().connection();
                res.handler(chunk -> {
                    if (!settled[0] && chunk.toString().contains("data:")) {
                        connections.add(conn);
                        open.incrementAndGet();
                        settle(settled, true, null);
                    }
                });
                res.endHandler(v -> streamGone(settled));
                res.exceptionHandler(e -> streamGone(settled));
            });
        }

        void streamGone(boolean[] settled) {
            if (closing) {
                return;
            }
            if (settled[0]) {
                lost.incrementAndGet();
                open.decrementAndGet();
            } else {
                settle(settled, false, "stream ended before its first event");
            }
        }

        void settle(boolean[] settled, boolean ok, String why) {
            if (settled[0]) {
                return;
            }
            settled[0] = true;
            inFlight--;
            if (!ok) {
                failed++;
                if (failed <= 3) {
                    System.err.println("open failed: " + why);
                }
            }
            pump();
        }
    }
}
