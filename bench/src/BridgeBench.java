import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bench-only load generator for the chat bridge (not part of the product). Every turn is a new web-chat
 * thread with one message ({@code POST /api/chat/channels/{c}/threads}); the turn counts as finished when
 * {@code GET /api/chat/threads/{t}} shows its post in a final state. Its latency is that post's
 * {@code updatedAt} (when the server committed the final state) minus when the POST was sent (closed loop) or
 * was due (open loop), so polling granularity does not enter the latency; both ends read this machine's clock.
 *
 * <pre>
 * java BridgeBench rounds BASE CHANNEL PID ROUNDS THREADS CLIENTS WARMUP_THREADS
 * java BridgeBench rate   BASE CHANNEL PID RATE WARMUP_S DURATION_S
 * </pre>
 * Prints one {@code RESULT ...} line per round (or one for the rate run); progress goes to stderr.
 */
public final class BridgeBench {

    private static final Set<String> FINAL = Set.of("completed", "failed", "rejected", "canceled", "not_delivered");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .executor(Executors.newFixedThreadPool(2)).connectTimeout(Duration.ofSeconds(10)).build();
    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(1);
    private final String base;
    private final String channel;
    private final long pid;
    private final AtomicLong errors = new AtomicLong();

    BridgeBench(String base, String channel, long pid) {
        this.base = base;
        this.channel = channel;
        this.pid = pid;
    }

    public static void main(String[] args) throws Exception {
        BridgeBench b = new BridgeBench(args[1], args[2], Long.parseLong(args[3]));
        if (args[0].equals("rounds")) {
            b.rounds(Integer.parseInt(args[4]), Integer.parseInt(args[5]), Integer.parseInt(args[6]),
                    Integer.parseInt(args[7]));
        } else {
            b.rate(Double.parseDouble(args[4]), Integer.parseInt(args[5]), Integer.parseInt(args[6]));
        }
        System.exit(0);
    }

    /** One finished turn: when its POST was sent/due, answered, and when the server wrote its final state. */
    record Done(Instant due, Instant accepted, Instant finished, String state) {
        double latencyMs() {
            return Duration.between(due, finished).toNanos() / 1e6;
        }
    }

    // ---- closed loop: rounds of N threads, CLIENTS at a time ----

    void rounds(int rounds, int n, int clients, int warmup) throws Exception {
        long inStore = 0;
        if (warmup > 0) {
            System.err.println("warm-up: " + warmup + " threads");
            round(warmup, clients);
            inStore += warmup;
        }
        double base0 = heapKb();
        java.util.Map<String, long[]> histo0 = histogram();
        System.out.printf("RESULT round=0 threads=%d heap_kb=%.0f%n", inStore, base0);
        for (int r = 1; r <= rounds; r++) {
            System.err.println("round " + r + ": " + n + " threads, " + clients + " clients");
            Instant start = Instant.now();
            long cpu0 = cpuTicks();
            List<Done> done = round(n, clients);
            long cpu = cpuTicks() - cpu0;
            inStore += n;
            Instant lastAccepted = done.stream().map(Done::accepted).max(Instant::compareTo).orElse(start);
            Instant lastFinished = done.stream().map(Done::finished).max(Instant::compareTo).orElse(start);
            double heap = heapKb();
            double[] lat = done.stream().mapToDouble(Done::latencyMs).sorted().toArray();
            long ok = done.stream().filter(d -> d.state().equals("completed")).count();
            System.out.printf("RESULT round=%d threads=%d accepted_per_s=%.0f finished_per_s=%.0f p50_ms=%.1f p99_ms=%.1f "
                            + "heap_kb=%.0f heap_kb_per_thread=%.2f completed=%d errors=%d cpu_us_per_turn=%.0f%n",
                    r, inStore, done.size() / secs(start, lastAccepted), done.size() / secs(start, lastFinished),
                    pct(lat, 50), pct(lat, 99), heap, (heap - base0) / (inStore - warmup), ok, errors.getAndSet(0),
                    cpu * 1e6 / 100 / Math.max(1, done.size()));
            System.out.flush();
        }
        // where the heap that stayed went: live objects after full GCs, growth since round 0, top classes
        java.util.Map<String, long[]> histo1 = histogram();
        long added = (long) rounds * n;
        histo1.entrySet().stream()
                .map(e -> java.util.Map.entry(e.getKey(), e.getValue()[1] - histo0.getOrDefault(e.getKey(), new long[2])[1]))
                .filter(e -> e.getValue() > 0).sorted((a, b) -> Long.compare(b.getValue(), a.getValue())).limit(12)
                .forEach(e -> System.out.printf("HISTO bytes_per_thread=%.0f class=%s%n", (double) e.getValue() / added,
                        e.getKey()));
    }

    /** class → {instances, bytes} of live objects (jcmd GC.class_histogram forces a full GC first). */
    java.util.Map<String, long[]> histogram() throws IOException, InterruptedException {
        java.util.Map<String, long[]> out = new java.util.HashMap<>();
        for (String line : jcmd("GC.class_histogram").split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 4 && f[0].endsWith(":")) {
                out.put(f[3], new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])});
            }
        }
        return out;
    }

    private List<Done> round(int n, int clients) throws InterruptedException {
        AtomicInteger left = new AtomicInteger(n);
        List<Done> done = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch finished = new CountDownLatch(clients);
        for (int c = 0; c < clients; c++) {
            next(left, done, finished);
        }
        finished.await();
        return done;
    }

    private void next(AtomicInteger left, List<Done> done, CountDownLatch finished) {
        if (left.getAndDecrement() <= 0) {
            finished.countDown();
            return;
        }
        turn(Instant.now()).whenComplete((d, e) -> {
            if (d != null) {
                done.add(d);
            } else {
                errors.incrementAndGet();
            }
            next(left, done, finished);
        });
    }

    // ---- open loop: a fixed rate of new threads ----

    void rate(double rate, int warmupS, int durationS) throws Exception {
        long periodNs = (long) (1e9 / rate);
        long total = (long) (rate * (warmupS + durationS));
        long warm = (long) (rate * warmupS);
        List<Done> done = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch all = new CountDownLatch((int) total);
        Instant t0 = Instant.now().plusMillis(100);
        AtomicLong sent = new AtomicLong();
        System.err.println("open loop: " + rate + "/s, " + warmupS + " s warm-up, " + durationS + " s recorded");
        timer.scheduleAtFixedRate(() -> {
            long i = sent.getAndIncrement();
            if (i >= total) {
                return;
            }
            Instant due = t0.plusNanos(i * periodNs);
            turn(due).whenComplete((d, e) -> {
                if (d != null && i >= warm) {
                    done.add(d);
                } else if (d == null) {
                    errors.incrementAndGet();
                }
                all.countDown();
            });
        }, 100_000_000L, periodNs, TimeUnit.NANOSECONDS);
        boolean complete = all.await(durationS + warmupS + 120L, TimeUnit.SECONDS);
        double[] lat = done.stream().mapToDouble(Done::latencyMs).sorted().toArray();
        System.out.printf("RESULT rate=%.0f recorded=%d p50_ms=%.1f p90_ms=%.1f p99_ms=%.1f max_ms=%.1f errors=%d%s heap_kb=%.0f%n",
                rate, lat.length, pct(lat, 50), pct(lat, 90), pct(lat, 99), lat.length == 0 ? 0 : lat[lat.length - 1],
                errors.get(), complete ? "" : " (some turns never finished)", heapKb());
    }

    // ---- one turn ----

    private CompletableFuture<Done> turn(Instant due) {
        String messageId = UUID.randomUUID().toString();
        String body = "{\"text\":\"bench " + messageId + "\",\"messageId\":\"" + messageId + "\"}";
        HttpRequest post = HttpRequest.newBuilder(URI.create(base + "/api/chat/channels/" + channel + "/threads"))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(120))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return http.sendAsync(post, HttpResponse.BodyHandlers.ofString()).thenCompose(r -> {
            if (r.statusCode() != 201) {
                throw new IllegalStateException("POST answered " + r.statusCode() + ": " + r.body());
            }
            Instant accepted = Instant.now();
            String threadId = read(r.body()).get("threadId").asText();
            CompletableFuture<Done> out = new CompletableFuture<>();
            poll(threadId, messageId, due, accepted, 2, out);
            return out;
        });
    }

    /** Polls the thread with a growing pause (2 ms doubling to 50 ms) until the message's turn is final. */
    private void poll(String threadId, String messageId, Instant due, Instant accepted, long pauseMs,
            CompletableFuture<Done> out) {
        timer.schedule(() -> {
            HttpRequest get = HttpRequest.newBuilder(URI.create(base + "/api/chat/threads/" + threadId))
                    .timeout(Duration.ofSeconds(120)).GET().build();
            http.sendAsync(get, HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> {
                if (e != null || r.statusCode() != 200) {
                    out.completeExceptionally(e != null ? e : new IllegalStateException("GET answered " + r.statusCode()));
                    return;
                }
                for (JsonNode p : read(r.body()).get("posts")) {
                    if (p.get("id").asText().equals(messageId) && FINAL.contains(p.path("state").asText())) {
                        out.complete(new Done(due, accepted, Instant.parse(p.get("updatedAt").asText()),
                                p.get("state").asText()));
                        return;
                    }
                }
                poll(threadId, messageId, due, accepted, Math.min(50, pauseMs * 2), out);
            });
        }, pauseMs, TimeUnit.MILLISECONDS);
    }

    // ---- helpers ----

    /** CPU the measured JVM has used, user and system, in clock ticks (1/100 s on Linux). */
    long cpuTicks() throws IOException {
        String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** Used heap after two full GCs, in KB (jcmd GC.run; GC.heap_info). */
    double heapKb() throws IOException, InterruptedException {
        jcmd("GC.run");
        Thread.sleep(1000);
        jcmd("GC.run");
        for (String line : jcmd("GC.heap_info").split("\n")) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("used (\\d+)K").matcher(line);
            if (m.find()) {
                return Double.parseDouble(m.group(1));
            }
        }
        return Double.NaN;
    }

    private String jcmd(String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("jcmd", Long.toString(pid), command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }

    private static JsonNode read(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new IllegalStateException("not JSON: " + body, e);
        }
    }

    private static double secs(Instant a, Instant b) {
        return Math.max(1e-3, Duration.between(a, b).toNanos() / 1e9);
    }

    private static double pct(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
