import io.netty.channel.EventLoop;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.internal.ContextInternal;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
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
 * Latencies are kept in plain arrays and sorted at the end (exact percentiles).
 *
 * <p>Several targets are measured in one run, <em>interleaved</em>: first a warm-up segment per target
 * (not recorded), then rounds of SEGMENT_S seconds per target in turn, until each target has had
 * DURATION_S recorded seconds. Only one target gets traffic at a time, at RATE; background noise on a
 * shared machine is spread evenly over the targets instead of hitting whichever ran at a bad moment.
 *
 * <p>Usage: {@code OpenLoop BODY_FILE RATE WARMUP_S DURATION_S SEGMENT_S CONNECTIONS LABEL=URL...}.
 * Prints one line per target:
 * {@code RESULT label=.. sent=.. ok=.. errors=.. rate=.. p50_ms=.. p90_ms=.. p99_ms=.. p999_ms=.. max_ms=..}, with
 * {@code outside_n=.. outside_p99_ms=..} when the first target's slowest requests show the host's periodic stalls
 * (a {@code PHASE} line says; see {@code baselineStallWindow}).
 */
public final class OpenLoop {

    public static void main(String[] args) throws Exception {
        Buffer body = Buffer.buffer(Files.readAllBytes(Path.of(args[0])));
        int rate = Integer.parseInt(args[1]);
        int warmupS = Integer.parseInt(args[2]);
        int durationS = Integer.parseInt(args[3]);
        double segmentS = Double.parseDouble(args[4]); // fractions allowed: 0.2 = 200 ms
        int connections = Integer.parseInt(args[5]);
        int n = args.length - 6;
        String[] labels = new String[n];
        RequestOptions[] opts = new RequestOptions[n];
        for (int t = 0; t < n; t++) {
            String[] kv = args[6 + t].split("=", 2);
            labels[t] = kv[0];
            URI uri = URI.create(kv[1]);
            opts[t] = new RequestOptions().setMethod(HttpMethod.POST).setHost(uri.getHost())
                    .setPort(uri.getPort()).setURI(uri.getRawPath()).putHeader("Content-Type", "application/json");
        }

        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setPreferNativeTransport(true));
        if (!vertx.isNativeTransportEnabled()) {
            System.err.println("native transport unavailable, pacing by NIO's millisecond selector timeouts: "
                    + vertx.unavailableNativeTransportCause());
        }
        HttpClientAgent client = vertx.httpClientBuilder()
                .with(new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true))
                .with(new PoolOptions().setHttp1MaxSize(connections).setMaxWaitQueueSize(-1))
                .build();
        ContextInternal ctx = (ContextInternal) vertx.getOrCreateContext();
        EventLoop loop = ctx.nettyEventLoop();

        long periodNanos = 1_000_000_000L / rate;
        int warmupPer = rate * warmupS;
        int segmentPer = Math.max(1, (int) Math.round(rate * segmentS));
        int rounds = Math.max(1, (int) Math.round(durationS / segmentS));
        int recordedPer = segmentPer * rounds;
        int total = n * (warmupPer + recordedPer);
        long[][] latencies = new long[n][recordedPer];
        for (long[] l : latencies) {
            Arrays.fill(l, -1);
        }
        long[] intendedOf = new long[total];
        // -Dopenloop.trace=FILE: per request, when it was due, when the pacing thread handed it over, when the event
        // loop started it and when it completed (ns from t0): splits a tail into pacing, hand-off and server time
        String trace = System.getProperty("openloop.trace");
        long[] issuedAt = new long[total]; // always: the pacing lag is reported
        long[] startedAt = trace == null ? null : new long[total];
        long[] doneAt = trace == null ? null : new long[total];
        int[] targetOf = new int[total];
        int[] slotOf = new int[total];
        int[] filled = new int[n];
        long[] ok = new long[n];
        long[] errors = new long[n];
        AtomicLong errorLines = new AtomicLong();
        CountDownLatch done = new CountDownLatch(total);
        long t0 = System.nanoTime() + 200_000_000L;

        // the schedule: warm-up segments, then interleaved recorded segments
        for (int i = 0; i < total; i++) {
            intendedOf[i] = t0 + i * periodNanos;
            if (i < n * warmupPer) {
                targetOf[i] = i / warmupPer;
                slotOf[i] = -1;
            } else {
                int j = i - n * warmupPer;
                int segment = j / segmentPer;
                int t = segment % n;
                targetOf[i] = t;
                slotOf[i] = filled[t]++;
            }
        }

        // one request: started on the event loop (the caller makes sure of that), completed there too
        java.util.function.IntConsumer send = i -> {
            final long intended = intendedOf[i];
            final int t = targetOf[i];
            final int slot = slotOf[i];
            if (startedAt != null) {
                startedAt[i] = System.nanoTime();
            }
            client.request(opts[t])
                    .compose(req -> req.send(body))
                    .compose(res -> res.body().map(b -> res.statusCode()))
                    .onComplete(ar -> {
                        long end = System.nanoTime();
                        if (doneAt != null) {
                            doneAt[i] = end;
                        }
                        if (slot >= 0) {
                            latencies[t][slot] = end - intended;
                            if (ar.succeeded() && ar.result() == 200) {
                                ok[t]++;
                            } else {
                                errors[t]++;
                            }
                        }
                        if (!(ar.succeeded() && ar.result() == 200) && errorLines.incrementAndGet() <= 3) {
                            System.err.println(labels[t] + " error: " + (ar.succeeded() ? "HTTP " + ar.result() : ar.cause()));
                        }
                        done.countDown();
                    });
        };
        long[] sendEndAt = new long[1];
        long gc0Count = gcCount(); // GCs from here on, warm-up included (it is interleaved with nothing else)
        long gc0Ms = gcMillis();
        if ("thread".equals(System.getProperty("openloop.pacer", "loop"))) {
            // the old way, kept to compare: a pacing thread (park, then spin) hands every request to the event loop
            for (int i = 0; i < total; i++) {
                long intended = intendedOf[i];
                long wait;
                while ((wait = intended - System.nanoTime()) > 0) {
                    if (wait > 100_000) {
                        LockSupport.parkNanos(wait - 60_000);
                    } else {
                        Thread.onSpinWait();
                    }
                }
                final int idx = i;
                if (issuedAt != null) {
                    issuedAt[i] = System.nanoTime();
                }
                ctx.runOnContext(v -> send.accept(idx));
            }
            sendEndAt[0] = System.nanoTime();
        } else {
            // Paced on the event loop itself, by Netty's scheduler: with the native epoll transport its deadline is a
            // timerfd (no timer slack, unlike parkNanos' 50 us), and no request waits for a cross-thread wake-up of
            // the loop. Requests that are due (the loop was busy or late) all go out at once.
            CountDownLatch allSent = new CountDownLatch(1);
            int[] next = {0};
            Runnable[] pacer = new Runnable[1];
            long spinNanos = Long.getLong("openloop.spinMicros", 50) * 1000;
            pacer[0] = () -> ctx.dispatch(v -> {
                long now = System.nanoTime();
                if (next[0] < total && intendedOf[next[0]] - now <= spinNanos) {
                    // the timer fires spinNanos early; the last stretch is spun (thread wake-ups on this VM take
                    // tens of microseconds)
                    while ((now = System.nanoTime()) < intendedOf[next[0]]) {
                        Thread.onSpinWait();
                    }
                }
                while (next[0] < total && intendedOf[next[0]] <= now) {
                    if (issuedAt != null) {
                        issuedAt[next[0]] = now;
                    }
                    send.accept(next[0]++);
                }
                if (next[0] < total) {
                    loop.schedule(pacer[0], intendedOf[next[0]] - spinNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
                } else {
                    sendEndAt[0] = System.nanoTime();
                    allSent.countDown();
                }
            });
            loop.execute(pacer[0]);
            allSent.await();
        }
        long sendEnd = sendEndAt[0];
        boolean finished = done.await(30, TimeUnit.SECONDS);
        CountDownLatch read = new CountDownLatch(1);
        ctx.runOnContext(v -> read.countDown()); // counters were written on the event loop
        read.await();
        long now = System.nanoTime();
        double achieved = total / ((sendEnd - t0) / 1e9);
        // the generator's own share of the tail: how late it sent (due -> handed to the connection) and its GCs
        long[] lag = new long[n * recordedPer];
        for (int i = 0, k = 0; i < total; i++) {
            if (slotOf[i] >= 0) {
                lag[k++] = issuedAt[i] - intendedOf[i];
            }
        }
        Arrays.sort(lag);
        System.out.printf(Locale.ROOT,
                "GENERATOR pacer=%s native_transport=%s gc_count=%d gc_ms=%d send_lag_p50_us=%.1f send_lag_p99_us=%.1f send_lag_p999_us=%.1f send_lag_max_us=%.1f%n",
                System.getProperty("openloop.pacer", "loop"), vertx.isNativeTransportEnabled(), gcCount() - gc0Count,
                gcMillis() - gc0Ms, pct(lag, 50) * 1e3, pct(lag, 99) * 1e3, pct(lag, 99.9) * 1e3, lag[lag.length - 1] / 1e3);
        // The host's periodic stalls (see HostStalls): the slowest 1 % of the first target's requests (the baseline,
        // no proxy in its path) cluster at one phase of every 100 ms of wall clock. When at least half of them fall
        // in one 30 ms window, every target's p99 is also given over the requests due outside it: the same 70 % of
        // every target's requests, chosen by the clock, to tell the host's stalls from a target's own tail. The
        // window comes from the baseline alone, so a target's own periodic stalls are not excluded with it.
        long epochMinusNanoAtEnd = System.currentTimeMillis() * 1_000_000L - System.nanoTime();
        int[] phaseOf = new int[total];
        for (int i = 0; i < total; i++) {
            phaseOf[i] = (int) ((intendedOf[i] + epochMinusNanoAtEnd) / 1_000_000L % 100);
        }
        int window = baselineStallWindow(latencies[0], targetOf, slotOf, phaseOf);
        for (int t = 0; t < n; t++) {
            long[] measured = latencies[t];
            int unfinished = 0;
            for (int k = 0; k < measured.length; k++) {
                if (measured[k] < 0) {
                    unfinished++;
                    measured[k] = now - t0; // never answered: charged at least the whole run
                }
            }
            String outside = "";
            if (window >= 0) {
                long[] out = new long[recordedPer];
                int m = 0;
                for (int i = 0; i < total; i++) {
                    if (targetOf[i] == t && slotOf[i] >= 0 && Math.floorMod(phaseOf[i] - window, 100) >= WINDOW_MS) {
                        out[m++] = measured[slotOf[i]];
                    }
                }
                long[] sorted = Arrays.copyOf(out, m);
                Arrays.sort(sorted);
                outside = String.format(Locale.ROOT, " outside_n=%d outside_p99_ms=%.3f", m, m == 0 ? 0.0 : pct(sorted, 99));
            }
            Arrays.sort(measured);
            System.out.printf(Locale.ROOT,
                    "RESULT label=%s sent=%d ok=%d errors=%d unfinished=%d rate=%.1f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f p999_ms=%.3f max_ms=%.3f%s%n",
                    labels[t], measured.length, ok[t], errors[t], finished ? 0 : unfinished, achieved,
                    pct(measured, 50), pct(measured, 90), pct(measured, 99), pct(measured, 99.9),
                    measured[measured.length - 1] / 1e6, outside);
        }
        if (trace != null) {
            try (java.io.PrintWriter w = new java.io.PrintWriter(Files.newBufferedWriter(Path.of(trace)))) {
                long epochMinusNano = System.currentTimeMillis() * 1_000_000L - System.nanoTime();
                w.println("i target recorded due_us issued_lag_us start_lag_us total_us due_epoch_ms");
                for (int i = 0; i < total; i++) {
                    w.printf(Locale.ROOT, "%d %s %d %.1f %.1f %.1f %.1f %.3f%n", i, labels[targetOf[i]], slotOf[i] >= 0 ? 1 : 0,
                            (intendedOf[i] - t0) / 1e3, (issuedAt[i] - intendedOf[i]) / 1e3,
                            (startedAt[i] - intendedOf[i]) / 1e3, (doneAt[i] - intendedOf[i]) / 1e3,
                            (intendedOf[i] + epochMinusNano) / 1e6);
                }
            }
        }
        client.close();
        vertx.close();
        System.exit(0);
    }

    static final int WINDOW_MS = 30;

    /**
     * The start (ms into every 100 ms) of the 30 ms phase window holding the most of the baseline's slowest 1 %,
     * centred on its most crowded 10 ms bin, or -1 when it holds fewer than half of them. Prints a PHASE line.
     */
    private static int baselineStallWindow(long[] baseline, int[] targetOf, int[] slotOf, int[] phaseOf) {
        long[] sorted = baseline.clone();
        Arrays.sort(sorted);
        long p99 = sorted[(int) Math.ceil(0.99 * sorted.length) - 1];
        int[] bins = new int[10];
        int slow = 0;
        for (int i = 0; i < targetOf.length; i++) {
            if (targetOf[i] == 0 && slotOf[i] >= 0 && baseline[slotOf[i]] > p99) {
                bins[phaseOf[i] / 10]++;
                slow++;
            }
        }
        int peak = 0;
        for (int b = 1; b < 10; b++) {
            if (bins[b] > bins[peak]) {
                peak = b;
            }
        }
        int start = (peak + 9) % 10;
        int inWindow = bins[start] + bins[peak] + bins[(peak + 1) % 10];
        double share = slow == 0 ? 0 : (double) inWindow / slow;
        System.out.printf(Locale.ROOT, "PHASE baseline_slowest=%d window_start_ms=%d window_ms=%d share=%.2f%n",
                slow, start * 10, WINDOW_MS, share);
        return share >= 0.5 ? start * 10 : -1;
    }

    private static long gcCount() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
    }

    private static long gcMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream().mapToLong(GarbageCollectorMXBean::getCollectionTime).sum();
    }

    private static double pct(long[] sorted, double p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
    }
}
