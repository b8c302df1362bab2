import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Bench-only open-loop load generator (wrk2 is not packaged in Debian): sends POSTs at a fixed rate,
 * whatever the server's speed, and measures each latency from the request's <em>intended</em> send
 * time, so a stalled server is charged for the requests it delayed (no coordinated omission).
 * Latencies are kept in a plain array and sorted at the end (exact percentiles).
 *
 * <p>Usage: {@code OpenLoop URL BODY_FILE RATE WARMUP_S DURATION_S CONNECTIONS}. Prints one line:
 * {@code RESULT sent=.. ok=.. errors=.. rate=.. p50_ms=.. p90_ms=.. p99_ms=.. p999_ms=.. max_ms=..}
 */
public final class OpenLoop {

    public static void main(String[] args) throws Exception {
        URI uri = URI.create(args[0]);
        Buffer body = Buffer.buffer(Files.readAllBytes(Path.of(args[1])));
        int rate = Integer.parseInt(args[2]);
        int warmupS = Integer.parseInt(args[3]);
        int durationS = Integer.parseInt(args[4]);
        int connections = Integer.parseInt(args[5]);

        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        HttpClientAgent client = vertx.httpClientBuilder()
                .with(new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true))
                .with(new PoolOptions().setHttp1MaxSize(connections).setMaxWaitQueueSize(-1))
                .build();
        Context ctx = vertx.getOrCreateContext();
        RequestOptions opts = new RequestOptions().setMethod(HttpMethod.POST).setHost(uri.getHost())
                .setPort(uri.getPort()).setURI(uri.getRawPath()).putHeader("Content-Type", "application/json");

        int total = rate * (warmupS + durationS);
        int warmupCount = rate * warmupS;
        long[] latencies = new long[total];
        Arrays.fill(latencies, -1);
        AtomicLong errors = new AtomicLong();
        AtomicLong ok = new AtomicLong();
        CountDownLatch done = new CountDownLatch(total);
        long periodNanos = 1_000_000_000L / rate;
        long t0 = System.nanoTime() + 200_000_000L;

        for (int i = 0; i < total; i++) {
            long intended = t0 + i * periodNanos;
            long wait;
            while ((wait = intended - System.nanoTime()) > 0) {
                if (wait > 200_000) {
                    LockSupport.parkNanos(wait - 100_000);
                } else {
                    Thread.onSpinWait();
                }
            }
            final int idx = i;
            ctx.runOnContext(v -> client.request(opts)
                    .compose(req -> req.send(body))
                    .compose(res -> res.body().map(b -> res.statusCode()))
                    .onComplete(ar -> {
                        long lat = System.nanoTime() - intended;
                        latencies[idx] = lat;
                        if (ar.succeeded() && ar.result() == 200) {
                            ok.incrementAndGet();
                        } else {
                            errors.incrementAndGet();
                            if (errors.get() <= 3) {
                                System.err.println("error: " + (ar.succeeded() ? "HTTP " + ar.result() : ar.cause()));
                            }
                        }
                        done.countDown();
                    }));
        }
        long sendEnd = System.nanoTime();
        boolean finished = done.await(30, TimeUnit.SECONDS);
        long now = System.nanoTime();
        for (int i = 0; i < total; i++) {
            if (latencies[i] < 0) {
                latencies[i] = now - (t0 + i * periodNanos); // never answered: charged until now
            }
        }
        double achieved = (total - 0.0) / ((sendEnd - t0) / 1e9);
        long[] measured = Arrays.copyOfRange(latencies, warmupCount, total);
        Arrays.sort(measured);
        System.out.printf(Locale.ROOT,
                "RESULT sent=%d ok=%d errors=%d unfinished=%d rate=%.1f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f p999_ms=%.3f max_ms=%.3f%n",
                total, ok.get(), errors.get(), finished ? 0 : done.getCount(), achieved,
                pct(measured, 50), pct(measured, 90), pct(measured, 99), pct(measured, 99.9),
                measured[measured.length - 1] / 1e6);
        client.close();
        vertx.close();
        System.exit(0);
    }

    private static double pct(long[] sorted, double p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
    }
}
