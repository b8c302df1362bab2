import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * send_message calls/s through /mcp against the same sends through /a2a, in one run (issue 25; goal: /mcp at least
 * 0.8x /a2a). Run by bench/mcp.sh: java -cp switchboard-app.jar bench/src/McpBench.java JAR WORKDIR.
 *
 * One upstream A2A 1.0 agent in this JVM (Vert.x, 1 event loop) whose card says it does not stream, so both doors send
 * it one SendMessage per call and it answers a completed task with one text artifact. Switchboard runs as users run it
 * (java -jar switchboard-app.jar serve). The load generator is closed loop: CONCURRENCY calls in flight over the JDK's
 * HTTP client, the same client and the same concurrency for both doors. After a warm-up through both, the doors take
 * turns (ROUNDS rounds of SEGMENT seconds each) so that the machine's drift falls on both alike.
 */
public class McpBench {

    static final int CONCURRENCY = Integer.getInteger("concurrency", 32);
    static final int ROUNDS = Integer.getInteger("rounds", 4);
    static final int SEGMENT = Integer.getInteger("segment", 8);
    static final int WARMUP = Integer.getInteger("warmup", 20);

    static final String TASK = "{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"task\":{\"id\":\"t-1\",\"contextId\":\"c-1\","
            + "\"status\":{\"state\":\"TASK_STATE_COMPLETED\"},\"artifacts\":[{\"artifactId\":\"a-1\",\"parts\":[{\"text\":"
            + "\"the answer of the bench agent, the same for every call\"}]}]}}}";

    public static void main(String[] args) throws Exception {
        String jar = args[0];
        Path work = Path.of(args[1]);
        Vertx vertx = Vertx.vertx();
        HttpServer upstream = vertx.createHttpServer().requestHandler(req -> {
            if (req.path().endsWith("/.well-known/agent-card.json")) {
                req.response().putHeader("Content-Type", "application/json").end("{\"name\":\"bench\",\"description\":\"b\","
                        + "\"version\":\"1\",\"supportedInterfaces\":[{\"url\":\"http://127.0.0.1/\",\"protocolBinding\":"
                        + "\"JSONRPC\",\"protocolVersion\":\"1.0\"}],\"capabilities\":{\"streaming\":false},"
                        + "\"defaultInputModes\":[\"text/plain\"],\"defaultOutputModes\":[\"text/plain\"],\"skills\":[]}");
                return;
            }
            req.body().onSuccess(b -> {
                String body = b.toString();
                int at = body.indexOf("\"id\":");
                String id = "1";
                if (at >= 0) {
                    int end = body.indexOf(',', at);
                    id = body.substring(at + 5, end < 0 ? body.length() : end);
                }
                req.response().putHeader("Content-Type", "application/json").end(TASK.formatted(id));
            });
        }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get();
        int upPort = upstream.actualPort();
        int port;
        try (var s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Files.createDirectories(work);
        Files.writeString(work.resolve("switchboard.yaml"), """
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                  listen: 127.0.0.1:%d
                  store: sqlite:%s
                  http: {maxConnections: 50000}
                ---
                apiVersion: switchboard.dev/v1
                kind: AgentBackend
                metadata: {name: bench}
                spec:
                  url: http://127.0.0.1:%d/
                  limits: {maxConcurrency: 20000, defaultTimeoutSeconds: 60}
                """.formatted(port, work.resolve("switchboard.db"), upPort));
        Process sb = new ProcessBuilder("java", "-jar", jar, "serve", "--config", work.resolve("switchboard.yaml").toString())
                .redirectErrorStream(true).redirectOutput(work.resolve("switchboard.log").toFile()).start();
        Runtime.getRuntime().addShutdownHook(new Thread(sb::destroy));
        String base = "http://127.0.0.1:" + port;
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        waitReady(http, base + "/readyz");

        List<String> sessions = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            sessions.add(initialize(http, base));
        }
        AtomicLong seq = new AtomicLong();
        Door a2a = new Door("/a2a", () -> HttpRequest.newBuilder(URI.create(base + "/a2a/bench"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":" + seq.incrementAndGet()
                        + ",\"method\":\"SendMessage\",\"params\":{\"message\":{\"messageId\":\"m-" + seq.get()
                        + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hello bench\"}]}}}")).build());
        Door mcp = new Door("/mcp", () -> {
            long n = seq.incrementAndGet();
            return HttpRequest.newBuilder(URI.create(base + "/mcp"))
                    .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                    .header("Mcp-Session-Id", sessions.get((int) (n % sessions.size())))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":" + n
                            + ",\"method\":\"tools/call\",\"params\":{\"name\":\"send_message\",\"arguments\":"
                            + "{\"agent\":\"bench\",\"text\":\"hello bench\"}}}")).build();
        });
        check(http, a2a, "the answer of the bench agent");
        check(http, mcp, "the answer of the bench agent");

        System.out.printf("warm-up: %d s through both doors%n", WARMUP);
        for (int i = 0; i < WARMUP / 4; i++) {
            a2a.run(http, 2);
            mcp.run(http, 2);
        }
        long a2aCalls = 0;
        long mcpCalls = 0;
        for (int round = 1; round <= ROUNDS; round++) {
            Door.Result ra = a2a.run(http, SEGMENT);
            Door.Result rm = mcp.run(http, SEGMENT);
            a2aCalls += ra.calls;
            mcpCalls += rm.calls;
            System.out.printf("round %d: /a2a %.0f calls/s (%d errors), /mcp %.0f calls/s (%d errors), ratio %.2f%n", round,
                    ra.perSecond(), ra.errors, rm.perSecond(), rm.errors, rm.perSecond() / ra.perSecond());
        }
        double a = a2aCalls / (double) (ROUNDS * SEGMENT);
        double m = mcpCalls / (double) (ROUNDS * SEGMENT);
        System.out.printf("total: /a2a %.0f calls/s, /mcp %.0f calls/s, /mcp ÷ /a2a = %.2f (goal >= 0.8), %d in flight, "
                + "%d rounds of %d s%n", a, m, m / a, CONCURRENCY, ROUNDS, SEGMENT);
        sb.destroy();
        sb.waitFor();
        vertx.close();
        System.exit(0);
    }

    /** One door's load: CONCURRENCY loops, each sending its next call when the last one is answered. */
    record Door(String name, java.util.function.Supplier<HttpRequest> request) {
        record Result(long calls, long errors, double seconds) {
            double perSecond() {
                return calls / seconds;
            }
        }

        Result run(HttpClient http, int seconds) throws Exception {
            AtomicLong calls = new AtomicLong();
            AtomicLong errors = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            List<CompletableFuture<Void>> loops = new ArrayList<>();
            long started = System.nanoTime();
            for (int i = 0; i < CONCURRENCY; i++) {
                CompletableFuture<Void> done = new CompletableFuture<>();
                loops.add(done);
                next(http, calls, errors, stop, done);
            }
            Thread.sleep(seconds * 1000L);
            stop.set(true);
            double elapsed = (System.nanoTime() - started) / 1e9;
            long counted = calls.get();
            CompletableFuture.allOf(loops.toArray(CompletableFuture[]::new)).get();
            return new Result(counted, errors.get(), elapsed);
        }

        private void next(HttpClient http, AtomicLong calls, AtomicLong errors, AtomicBoolean stop,
                CompletableFuture<Void> done) {
            if (stop.get()) {
                done.complete(null);
                return;
            }
            http.sendAsync(request.get(), HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> {
                if (e != null || r.statusCode() != 200 || r.body().contains("\"error\"") || r.body().contains("\"isError\":true")) {
                    errors.incrementAndGet();
                } else {
                    calls.incrementAndGet();
                }
                next(http, calls, errors, stop, done);
            });
        }
    }

    static void check(HttpClient http, Door door, String expected) throws Exception {
        String body = http.send(door.request().get(), HttpResponse.BodyHandlers.ofString()).body();
        if (!body.contains(expected)) {
            throw new IllegalStateException(door.name() + " did not answer the agent's text: " + body);
        }
    }

    static String initialize(HttpClient http, String base) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\","
                        + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}")).build(), HttpResponse.BodyHandlers.ofString());
        String session = r.headers().firstValue("Mcp-Session-Id").orElseThrow(() -> new IllegalStateException(r.body()));
        http.send(HttpRequest.newBuilder(URI.create(base + "/mcp")).header("Content-Type", "application/json")
                .header("Mcp-Session-Id", session).header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        return session;
    }

    static void waitReady(HttpClient http, String url) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < until) {
            try {
                if (http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding())
                        .statusCode() == 200) {
                    return;
                }
            } catch (java.io.IOException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("Switchboard did not get ready: see the log in the work directory");
    }
}
