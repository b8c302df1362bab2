package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.bridge.support.ServiceProcess;
import dev.switchboard.gateway.support.Metrics;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.testing.ProcessTest;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import dev.switchboard.testkit.slack.FakeSlack;
import dev.switchboard.testkit.slack.FakeSlackOptions;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The H2 soak ({@code ./mvnw -B -o -pl service -am verify -Psoak-bodies}): the packaged service in a process of its
 * own with {@code -Xmx256m} and the default body budget, and {@value #PER_ROUTE} stalled connections to each route that
 * takes a body from anyone, each sending all but the last byte of a body of 1 MiB (or of its route's maximum, where
 * that is less), half with a {@code Content-Length}, half chunked. Throughout, {@code /healthz} must answer and a keyed
 * gateway call succeed; afterwards the heap (after a GC) must be back within 10 % of where it started.
 * {@code -Dsoak.connections=N} changes the number per route.
 */
@ServerTest
@ProcessTest
class StalledBodiesSoak {

    static final int PER_ROUTE = Integer.getInteger("soak.connections", 2000);
    static final int BODY = 1024 * 1024;
    static final String KEY = "soak-caller-key-0123456789";
    /** Each route and the most its body may be (the server refuses a larger declared one 413 before reading). */
    static final Map<String, Integer> ROUTES = routes();
    private static final int PIECE = 64 * 1024;
    private static final Buffer ZEROS = Buffer.buffer(new byte[PIECE]);

    @TempDir
    Path dir;

    Vertx vertx;
    TestAgent agent;
    FakeSlack slack;
    ServiceProcess service;
    String base;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private static Map<String, Integer> routes() {
        Map<String, Integer> r = new LinkedHashMap<>();
        r.put("/slack/events", BODY);
        r.put("/slack/interactions", BODY);
        r.put("/agents/register", 256 * 1024);
        r.put("/triggers/alerts", BODY);
        r.put("/api/chat/threads", 64 * 1024);
        return r;
    }

    @BeforeEach
    void start() throws Exception {
        assumeTrue(System.getProperty(ServiceProcess.JAR_PROPERTY) != null,
                "the body soak runs in failsafe (-Psoak-bodies), which names the packaged jar");
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("sre"), 0).await();
        slack = FakeSlack.start(vertx, FakeSlackOptions.defaults()
                .withTokens(ConfigYaml.SLACK_BOT_TOKEN, ConfigYaml.SLACK_APP_TOKEN)).await();
        // connections are capped high enough that the body budget, not the connection cap, is what is exercised
        String yaml = ConfigYaml.server(dir.resolve("soak.db"), """
                        apiKeys: [{name: caller, key: %s}]
                        http: {maxConnections: 19000, bodyReadTimeout: 10m, idleTimeout: 10m, headerReadTimeout: 10m}
                        """.formatted(KEY))
                .slackAgent("sre", agent.url(), "events", slack.apiUrl(), null)
                .trigger("alerts", "slack-sre", "generic", null)
                .yaml();
        Path config = dir.resolve("switchboard.yaml");
        Files.writeString(config, yaml);
        service = new ServiceProcess(config, Files.createDirectories(Path.of("target", "body-soak")));
    }

    @AfterEach
    void stop() throws Exception {
        try {
            if (service != null) {
                service.close();
            }
        } finally {
            if (vertx != null) {
                vertx.close().await();
            }
        }
    }

    @Test
    void stalledBodiesOnEveryRouteLeaveTheServiceServingAndItsHeapWhereItWas() throws Exception {
        base = service.start();
        URI u = URI.create(base);
        // warm up: every route once, the gateway once, so what start-up loads lazily is in the first heap figure
        for (int i = 0; i < 20; i++) {
            assertThat(gatewayCall().statusCode()).isEqualTo(200);
            assertThat(get("/healthz").statusCode()).isEqualTo(200);
        }
        long heapStart = heapAfterGc();

        Probes probes = new Probes();
        Thread prober = new Thread(probes, "soak-probes");
        prober.start();

        NetClient client = vertx.createNetClient(new NetClientOptions().setConnectTimeout(30_000));
        Map<String, Map<String, AtomicInteger>> outcomes = new LinkedHashMap<>();
        List<NetSocket> sockets = Collections.synchronizedList(new ArrayList<>());
        long peakHeap = 0;
        long peakBudget = 0;
        long started = System.nanoTime();
        for (Map.Entry<String, Integer> route : ROUTES.entrySet()) {
            Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
            outcomes.put(route.getKey(), seen);
            for (int i = 0; i < PER_ROUTE; i++) {
                try {
                    NetSocket s = client.connect(u.getPort(), u.getHost()).await(30, TimeUnit.SECONDS);
                    sockets.add(s);
                    stall(s, route.getKey(), route.getValue(), i % 2 == 0, seen);
                } catch (Exception e) {
                    seen.computeIfAbsent("connect failed", k -> new AtomicInteger()).incrementAndGet();
                }
                if (i % 500 == 499) {
                    peakHeap = Math.max(peakHeap, heapUsed());
                    peakBudget = Math.max(peakBudget, bytesInFlight());
                }
            }
        }
        // all are open (or refused): held for a while, as an attacker would
        for (int i = 0; i < 20; i++) {
            Thread.sleep(500);
            peakHeap = Math.max(peakHeap, heapUsed());
            peakBudget = Math.max(peakBudget, bytesInFlight());
        }
        long attackSeconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        synchronized (sockets) {
            sockets.forEach(NetSocket::close);
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofMinutes(2)).until(() -> bytesInFlight() == 0);
        probes.stop = true;
        prober.join();
        long heapEnd = heapAfterGc();

        System.out.printf("%nbody soak: %d connections per route, %d s of attack%n", PER_ROUTE, attackSeconds);
        outcomes.forEach((route, seen) -> System.out.printf("  %-22s %s%n", route, seen));
        System.out.printf("  request bytes in flight: peak %d (the routes' share: half the default budget)%n", peakBudget);
        System.out.printf("  heap after GC: start %.1f MiB, end %.1f MiB (%+.1f %%); peak seen %.1f MiB%n",
                mib(heapStart), mib(heapEnd), 100.0 * (heapEnd - heapStart) / heapStart, mib(peakHeap));
        System.out.printf("  /healthz: %d probes, %d failed, latency max %d ms, mean %.1f ms%n", probes.health.get(),
                probes.healthFailed.get(), probes.healthMaxMs.get(), (double) probes.healthTotalMs.get() / Math.max(1, probes.health.get()));
        System.out.printf("  keyed gateway calls: %d, %d succeeded, latency max %d ms%n", probes.calls.get(),
                probes.callsOk.get(), probes.callMaxMs.get());
        System.out.printf("  service stderr OutOfMemoryError: %s%n", service.errors().contains("OutOfMemoryError"));

        assertThat(service.process().isAlive()).as("the service is still up").isTrue();
        assertThat(service.errors()).doesNotContain("OutOfMemoryError");
        assertThat(probes.healthFailed.get()).as("/healthz failures").isZero();
        assertThat(probes.callsOk.get()).as("keyed gateway calls that succeeded").isEqualTo(probes.calls.get()).isPositive();
        assertThat(Math.abs(heapEnd - heapStart)).as("heap end vs start").isLessThanOrEqualTo(heapStart / 10);
        for (Map.Entry<String, Map<String, AtomicInteger>> o : outcomes.entrySet()) {
            assertThat(o.getValue().getOrDefault("503", new AtomicInteger()).get() + o.getValue()
                    .getOrDefault("401", new AtomicInteger()).get()).as(o.getKey() + " refused").isPositive();
        }
    }

    /** Sends the head at once and, unless the service answers first, all but the last byte of the body. */
    private void stall(NetSocket s, String path, int length, boolean declared, Map<String, AtomicInteger> seen) {
        boolean[] answered = {false};
        s.handler(data -> {
            if (!answered[0]) {
                answered[0] = true;
                String line = data.toString(StandardCharsets.ISO_8859_1);
                String status = line.startsWith("HTTP/1.1 ") && line.length() >= 12 ? line.substring(9, 12) : "?";
                seen.computeIfAbsent(status, k -> new AtomicInteger()).incrementAndGet();
                s.close();
            }
        });
        s.closeHandler(v -> {
            if (!answered[0]) {
                answered[0] = true;
                seen.computeIfAbsent("closed unanswered", k -> new AtomicInteger()).incrementAndGet();
            }
        });
        String head = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "X-Slack-Request-Timestamp: 1\r\nX-Slack-Signature: v0=00\r\n"
                + (declared ? "Content-Length: " + length : "Transfer-Encoding: chunked") + "\r\n\r\n";
        s.write(head);
        // a refusal comes back on the head: only a body that was taken is sent
        vertx.setTimer(300, t -> pump(s, declared, length - 1, answered));
    }

    private void pump(NetSocket s, boolean declared, int left, boolean[] answered) {
        int remaining = left;
        while (remaining > 0 && !answered[0] && !s.writeQueueFull()) {
            int n = Math.min(PIECE, remaining);
            Buffer piece = n == PIECE ? ZEROS : ZEROS.slice(0, n);
            if (declared) {
                s.write(piece);
            } else {
                s.write(Integer.toHexString(n) + "\r\n");
                s.write(piece);
                s.write("\r\n");
            }
            remaining -= n;
        }
        if (remaining > 0 && !answered[0]) {
            int rest = remaining;
            s.drainHandler(v -> pump(s, declared, rest, answered));
        }
    }

    /** /healthz and a keyed gateway call, over and over, while the soak runs. */
    private final class Probes implements Runnable {
        volatile boolean stop;
        final AtomicInteger health = new AtomicInteger();
        final AtomicInteger healthFailed = new AtomicInteger();
        final AtomicLong healthMaxMs = new AtomicLong();
        final AtomicLong healthTotalMs = new AtomicLong();
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger callsOk = new AtomicInteger();
        final AtomicLong callMaxMs = new AtomicLong();

        @Override
        public void run() {
            while (!stop) {
                long t0 = System.nanoTime();
                try {
                    int status = get("/healthz").statusCode();
                    if (status != 200) {
                        healthFailed.incrementAndGet();
                    }
                } catch (Exception e) {
                    healthFailed.incrementAndGet();
                }
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                health.incrementAndGet();
                healthTotalMs.addAndGet(ms);
                healthMaxMs.accumulateAndGet(ms, Math::max);
                long t1 = System.nanoTime();
                calls.incrementAndGet();
                try {
                    HttpResponse<String> r = gatewayCall();
                    if (r.statusCode() == 200 && r.body().contains("\"result\"")) {
                        callsOk.incrementAndGet();
                    } else {
                        System.out.println("soak: gateway call answered " + r.statusCode() + " " + r.body());
                    }
                } catch (Exception e) {
                    System.out.println("soak: gateway call failed: " + e);
                }
                callMaxMs.accumulateAndGet(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t1), Math::max);
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private HttpResponse<String> gatewayCall() throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + "/a2a/sre")).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + KEY).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Rpc.send(1, "soak"))).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private long bytesInFlight() throws Exception {
        return (long) new Metrics(get("/metrics").body()).sum("switchboard_gateway_request_bytes_in_flight");
    }

    private long heapUsed() throws Exception {
        return (long) new Metrics(get("/metrics").body()).sum("jvm_memory_used_bytes", "area", "heap");
    }

    /** The service's heap after a full GC (asked of it with jcmd), settled. */
    private long heapAfterGc() throws Exception {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        for (int i = 0; i < 2; i++) {
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(service.process().pid()), "GC.run")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(500);
        }
        return heapUsed();
    }

    private static double mib(long bytes) {
        return bytes / (1024.0 * 1024.0);
    }
}
