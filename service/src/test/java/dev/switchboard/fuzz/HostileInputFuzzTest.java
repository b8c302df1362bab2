package dev.switchboard.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.fuzz.Inputs.Input;
import dev.switchboard.fuzz.Inputs.Target;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import dev.switchboard.testkit.slack.FakeSlack;
import dev.switchboard.testkit.slack.FakeSlackOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Issue 8, point 7: hostile input at every entry point of a running Switchboard — the gateway, the
 * registry, the cards, the web chat API, and malformed HTTP framing — with an agent behind it that
 * answers with malformed replies and cards. Every input must be answered without a 5xx (but a 503 busy
 * with Retry-After, or the agent's own 5xx the gateway relays), within 30 s, with nothing logged at
 * ERROR, and {@code /healthz} must still answer 200 afterwards.
 *
 * <p>Inputs come from a seeded generator ({@link Inputs}): case i of a seed is always the same request.
 * The default run sends {@value #DEFAULT_COUNT}; {@code -Pfuzz} (or {@code -Dfuzz.count=N}) sends more.
 * {@code -Dfuzz.seed=S} replays a seed, {@code -Dfuzz.from=I} starts at case I, {@code -Dfuzz.concurrency=N}
 * sets how many requests are in flight (default 24; with 1, an ERROR log names the case that caused it), and
 * {@code -Dfuzz.targets=GATEWAY,CHAT} sends only the cases of those targets.
 */
@ServerTest
class HostileInputFuzzTest {

    static final int DEFAULT_COUNT = 3_000;
    private static final String SLACK_BOT_TOKEN = "xoxb-fuzz-bot-token-0a1b";
    private static final String SLACK_APP_TOKEN = "xapp-fuzz-app-token-2c3d";
    private static final int TIMEOUT_MILLIS = 30_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final Vertx vertx = Vertx.vertx();
    private final Vertx agentVertx = Vertx.vertx();
    private final Vertx clientVertx = Vertx.vertx();
    /** The cases in flight, so that an ERROR log can name them (exactly with -Dfuzz.concurrency=1). */
    private final Map<Long, Input> inFlightCases = new ConcurrentHashMap<>();
    private final LogWatch logs = new LogWatch(vertx, agentVertx, clientVertx, inFlightCases, this::agentReply);
    private final ExecutorService rawPool = Executors.newFixedThreadPool(8);
    private SwitchboardApp app;
    private TestAgent echo;
    private RawAgent hostile;
    private FakeSlack slack;
    private HostileAgent hostileAgent;
    private HttpClientAgent client;

    private final List<String> threads = Collections.synchronizedList(new ArrayList<>());
    private final ConcurrentLinkedQueue<String> slow = new ConcurrentLinkedQueue<>();
    /** wrong answers by kind (target, status, what): how many, and the first few in full */
    private final Map<String, AtomicInteger> failureKinds = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private final AtomicInteger failureCount = new AtomicInteger();
    private final Map<String, AtomicInteger> known = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> statuses = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> notes = new ConcurrentHashMap<>();
    private final Map<String, String> noteExamples = new ConcurrentHashMap<>();

    @BeforeEach
    void start() {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        logs.setContext(root.getLoggerContext());
        logs.start();
        root.addAppender(logs);
    }

    @AfterEach
    void stop() throws Exception {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.detachAppender(logs);
        rawPool.shutdownNow();
        if (client != null) {
            client.close();
        }
        if (app != null) {
            app.close().await();
        }
        if (echo != null) {
            echo.close().await();
        }
        if (hostile != null) {
            hostile.close().await();
        }
        if (slack != null) {
            slack.close().await();
        }
        clientVertx.close().await();
        agentVertx.close().await();
        vertx.close().await();
    }

    @Test
    void everyEntryPointSurvivesHostileInput() throws Exception {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        int count = Integer.getInteger("fuzz.count", DEFAULT_COUNT);
        long from = Long.getLong("fuzz.from", 0L);
        int concurrency = Integer.getInteger("fuzz.concurrency", 24);
        java.util.Set<Target> targets = java.util.Arrays.stream(System.getProperty("fuzz.targets",
                "GATEWAY,REGISTRY,CARD,CHAT,SLACK,TRIGGER,HOST,STALL,RAW,JWT,MCP").split(",")).map(String::trim).map(Target::valueOf)
                .collect(java.util.stream.Collectors.toCollection(() -> java.util.EnumSet.noneOf(Target.class)));
        System.out.printf("fuzz: seed %d, %d inputs from #%d, %d in flight (replay: -Dfuzz.seed=%d)%n", seed, count, from,
                concurrency, seed);

        startSwitchboard(seed);
        Inputs inputs = new Inputs(seed, threads);
        Semaphore inFlight = new Semaphore(concurrency);
        long started = System.nanoTime();
        for (long i = from; i < from + count; i++) {
            inFlight.acquire();
            Input in = inputs.input(i);
            if (!targets.contains(in.target())) {
                inFlight.release();
                continue;
            }
            long sent = System.nanoTime();
            inFlightCases.put(i, in);
            send(in).whenComplete((out, e) -> {
                try {
                    inFlightCases.remove(in.index());
                    long millis = (System.nanoTime() - sent) / 1_000_000;
                    if (millis > 5_000) {
                        slow.add(millis + " ms: " + in.toString().lines().findFirst().orElse(""));
                    }
                    judge(in, e == null ? out : new Reply(-1, Map.of(), new byte[0], String.valueOf(e)));
                } finally {
                    inFlight.release();
                }
            });
            if (i % 2000 == 1999) {
                hostile.clear();
                System.out.printf("fuzz: %d sent, %.1f s%n", i - from + 1, (System.nanoTime() - started) / 1e9);
            }
        }
        inFlight.acquire(concurrency);
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("fuzz: %d inputs in %.1f s (%.0f/s), seed %d%n", count, seconds, count / seconds, seed);
        System.out.println("fuzz: answers by target and status " + new TreeMap<>(statuses));
        if (!notes.isEmpty()) {
            System.out.println("fuzz: notes (not failures) " + new TreeMap<>(notes));
            noteExamples.forEach((k, v) -> System.out.println("fuzz: note example " + k + ": " + v));
        }
        slow.stream().limit(20).forEach(x -> System.out.println("fuzz: slow " + x));
        if (!known.isEmpty()) {
            System.out.println("fuzz: known findings (skipped) " + new TreeMap<>(known));
        }

        HttpResponse<String> health = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(app.baseUrl() + "/healthz")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        // the shutdown is part of the run: calls still in flight must not log at ERROR either
        app.close().await();
        app = null;
        List<String> errors = logs.unknownErrors();
        logs.knownErrors().forEach((k, v) -> System.out.println("fuzz: known ERROR log (skipped) " + k + " x" + v));
        failureKinds.forEach((k, n) -> System.out.println("fuzz: wrong answers x" + n + ": " + k));
        failures.stream().limit(60).forEach(f -> System.out.println("fuzz: FAILURE " + f));
        logs.unknownKinds().forEach((k, n) -> System.out.println("fuzz: ERROR logs x" + n + ": " + k));
        errors.forEach(e -> System.out.println("fuzz: ERROR LOG " + e));

        assertThat(health.statusCode()).as("/healthz after the fuzz run").isEqualTo(200);
        assertThat(failureCount.get())
                .as("wrong answers (seed %d): %s; first: %s", seed, failureKinds, failures.stream().limit(3).toList())
                .isZero();
        assertThat(logs.unknownKinds()).as("ERROR logs (seed %d)", seed).isEmpty();
    }

    // ---- the service under test ----

    private void startSwitchboard(long seed) {
        echo = TestAgent.start(agentVertx, TestAgentOptions.echo("echo"), 0).await();
        hostileAgent = new HostileAgent(seed);
        hostile = RawAgent.start(agentVertx, hostileAgent.responder()).await();
        slack = FakeSlack.start(agentVertx, FakeSlackOptions.defaults().withTokens(SLACK_BOT_TOKEN, SLACK_APP_TOKEN)).await();
        slack.addUser("U0ADA0001", "Ada", "Ada Lovelace", "ada@example.com");
        String yaml = """
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                  listen: 127.0.0.1:0
                  store: sqlite:%s
                  adminToken: %s
                  apiKeys: [{name: fuzzer, key: %s}]
                  auth: {jwt: [{issuer: "https://fuzz.idp/", audiences: [fuzz], jwks: '__JWKS__'}]}
                  registrationTtl: 30s
                  gateway: {maxRequestBytes: 262144, keepaliveInterval: 1s, connectTimeout: 2s}
                  http: {bodyReadTimeout: 2s}
                  mcp: {toolsPerSkill: true, maxSessions: 200}
                  contract: {giveUpAfter: 5s, busyNoticeAfter: 2s, silenceLimit: 3s, noSignOfLife: 5s,
                             responseHeaders: 3s, settleDelay: 100ms, pollBackoffMax: 1s, retryBackoffMax: 1s,
                             retryAfterMax: 2s}
                ---
                apiVersion: switchboard.dev/v1
                kind: AgentBackend
                metadata: {name: hostile}
                spec:
                  url: %s
                  limits: {maxConcurrency: 64, defaultTimeoutSeconds: 2, maxTimeoutSeconds: 3,
                           maxResponseBytes: %d, streamIdleTimeoutSeconds: 2}
                ---
                apiVersion: switchboard.dev/v1
                kind: AgentBackend
                metadata: {name: echo}
                spec:
                  url: %s
                  limits: {defaultTimeoutSeconds: 5, maxTimeoutSeconds: 5, streamIdleTimeoutSeconds: 2}
                  skills: [{id: echo, name: Echo, tags: [fuzz]}]
                ---
                apiVersion: switchboard.dev/v1
                kind: Binding
                metadata: {name: web-hostile}
                spec:
                  backendRef: {name: hostile}
                  chat: {platform: web, channels: [hostile]}
                  identity: {userId: fuzz-bot}
                  questions: {allowed: true, timeout: 2s}
                ---
                apiVersion: switchboard.dev/v1
                kind: Binding
                metadata: {name: web-echo}
                spec:
                  backendRef: {name: echo}
                  chat: {platform: web, channels: [echo]}
                  identity: {userId: fuzz-bot}
                ---
                apiVersion: switchboard.dev/v1
                kind: AccessPolicy
                metadata: {name: fuzzer-everything}
                spec:
                  subjects: [{apiKey: fuzzer}, {claim: groups, values: [fuzz]}]
                  methods: ["*"]
                ---
                apiVersion: v1
                kind: Secret
                metadata: {name: fuzz-slack}
                stringData: {botToken: %7$s, appToken: %8$s, live: %9$s, dead: %10$s, trigger: %11$s}
                ---
                apiVersion: switchboard.dev/v1
                kind: SlackApp
                metadata: {name: live}
                spec:
                  mode: events
                  botToken: {secretRef: {name: fuzz-slack, key: botToken}}
                  signingSecret: {secretRef: {name: fuzz-slack, key: live}}
                  apiUrl: "%12$s"
                ---
                apiVersion: switchboard.dev/v1
                kind: SlackApp
                metadata: {name: dead}
                spec:
                  mode: events
                  botToken: {secretRef: {name: fuzz-slack, key: botToken}}
                  signingSecret: {secretRef: {name: fuzz-slack, key: dead}}
                  apiUrl: "http://127.0.0.1:1/api/"
                ---
                apiVersion: switchboard.dev/v1
                kind: Binding
                metadata: {name: slack-live}
                spec:
                  backendRef: {name: hostile}
                  chat: {platform: slack, app: live, channels: [%13$s, im]}
                  identity: {userId: fuzz-bot}
                  questions: {allowed: true, timeout: 2s}
                ---
                apiVersion: switchboard.dev/v1
                kind: Binding
                metadata: {name: slack-dead}
                spec:
                  backendRef: {name: echo}
                  chat: {platform: slack, app: dead, channels: [%14$s, im]}
                  identity: {userId: fuzz-bot}
                ---
                apiVersion: switchboard.dev/v1
                kind: Trigger
                metadata: {name: alerts}
                spec:
                  bindingRef: {name: web-echo}
                  format: alertmanager
                  tokenSecretRef: {name: fuzz-slack, key: trigger}
                  rateLimit: {perMinute: 100000, burst: 100000}
                ---
                apiVersion: switchboard.dev/v1
                kind: Trigger
                metadata: {name: notes}
                spec:
                  bindingRef: {name: web-hostile}
                  format: generic
                  tokenSecretRef: {name: fuzz-slack, key: trigger}
                  rateLimit: {perMinute: 100000, burst: 100000}
                ---
                apiVersion: switchboard.dev/v1
                kind: Trigger
                metadata: {name: slack-alerts}
                spec:
                  bindingRef: {name: slack-live}
                  format: alertmanager
                  tokenSecretRef: {name: fuzz-slack, key: trigger}
                  rateLimit: {perMinute: 100000, burst: 100000}
                """.formatted(dir.resolve("switchboard.db"), Inputs.ADMIN_TOKEN, Inputs.API_KEY, hostile.url(),
                HostileAgent.MAX_RESPONSE_BYTES, echo.url(), SLACK_BOT_TOKEN, SLACK_APP_TOKEN, SlackInputs.LIVE_SECRET,
                SlackInputs.DEAD_SECRET, TriggerInputs.TOKEN, slack.apiUrl(), SlackInputs.LIVE_CHANNEL,
                SlackInputs.DEAD_CHANNEL);
        app = SwitchboardFixture.builder().vertx(vertx).yaml(yaml.replace("__JWKS__", JwtInputs.JWKS)).start().app();
        McpInputs.session = mcpSession(app.baseUrl());
        client = clientVertx.createHttpClient(new HttpClientOptions().setKeepAlive(false).setMaxInitialLineLength(65536)
                .setMaxHeaderSize(65536).setIdleTimeout(TIMEOUT_MILLIS).setIdleTimeoutUnit(TimeUnit.MILLISECONDS),
                new PoolOptions().setHttp1MaxSize(64));
    }

    // ---- sending ----

    private CompletableFuture<Reply> send(Input in) {
        URI base = URI.create(app.baseUrl());
        if (in.raw() != null) {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    if (HardeningInputs.abandoned(in)) {
                        return RawSocket.abandon(base.getPort(), in.raw());
                    }
                    return RawSocket.exchange(base.getPort(), in.raw(), TIMEOUT_MILLIS);
                } catch (java.net.SocketTimeoutException e) {
                    return new Reply(-1, Map.of(), new byte[0], "TIMEOUT: no answer within " + TIMEOUT_MILLIS + " ms");
                } catch (Exception e) {
                    return new Reply(-1, Map.of(), new byte[0], "closed: " + e);
                }
            }, rawPool);
        }
        Future<Reply> reply;
        try {
            RequestOptions options = new RequestOptions().setMethod(HttpMethod.valueOf(in.method()))
                    .setHost(base.getHost()).setPort(base.getPort()).setURI(in.path())
                    .setIdleTimeout(TIMEOUT_MILLIS).setFollowRedirects(false);
            for (String[] h : in.headers()) {
                if (h[1] != null) {
                    options.addHeader(h[0], h[1]);
                }
            }
            reply = client.request(options).compose(req -> (in.body() == null ? req.send() : req.send(Buffer.buffer(in.body())))
                    .compose(resp -> resp.body().map(b -> {
                        Map<String, String> headers = new TreeMap<>();
                        resp.headers().forEach((k, v) -> headers.putIfAbsent(k.toLowerCase(java.util.Locale.ROOT), v));
                        return new Reply(resp.statusCode(), headers, b.getBytes(), null);
                    })));
        } catch (RuntimeException e) {
            reply = Future.failedFuture(e);
        }
        return reply.toCompletionStage().toCompletableFuture()
                .orTimeout(TIMEOUT_MILLIS + 5_000, TimeUnit.MILLISECONDS)
                .exceptionally(e -> new Reply(-1, Map.of(), new byte[0],
                        (e instanceof TimeoutException || e.getCause() instanceof TimeoutException
                                || String.valueOf(e).toLowerCase(java.util.Locale.ROOT).contains("timeout") ? "TIMEOUT: " : "closed: ")
                                + e));
    }

    /** The malformed reply the agent gave a case, if it got one. */
    private String agentReply(long index) {
        Integer kind = hostileAgent == null ? null : hostileAgent.replyByCase.get(index);
        return kind == null ? null : "reply-" + kind;
    }

    // ---- judging ----

    private void judge(Input in, Reply out) {
        statuses.computeIfAbsent(in.target() + " " + out.status(), k -> new AtomicInteger()).incrementAndGet();
        rememberThread(in, out);
        String wrong = wrong(in, out);
        if (wrong == null) {
            return;
        }
        String knownAs = KnownFindings.answer(in, out);
        if (knownAs != null) {
            known.computeIfAbsent(knownAs, k -> new AtomicInteger()).incrementAndGet();
            return;
        }
        failureCount.incrementAndGet();
        String kind = in.target() + " " + (out.status() < 0 ? "no answer" : "HTTP " + out.status()) + " "
                + (in.target() == Target.RAW ? in.what() : in.method() + " " + in.path().replaceAll("[?/][^/]*$", "/…"));
        if (failureKinds.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet() <= 2) {
            failures.add(wrong + "\n  input: " + in + "\n  reply: " + out);
        }
    }

    /** Opens the MCP session most MCP inputs use, as the fuzzer's API key would. */
    private static String mcpSession(String base) {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/mcp"))
                    .header("Authorization", "Bearer " + Inputs.API_KEY).header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                            + "\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                            + "\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"1\"}}}"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            return r.headers().firstValue("Mcp-Session-Id").orElseThrow(
                    () -> new IllegalStateException("initialize at /mcp gave no session: " + r.statusCode() + " " + r.body()));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Why this answer is wrong, or null when it is acceptable. */
    private String wrong(Input in, Reply out) {
        if (out.failure() != null && out.failure().startsWith("TIMEOUT")) {
            return "no answer within " + TIMEOUT_MILLIS / 1000 + " s (a hang)";
        }
        if (in.target() == Target.STALL) {
            return HardeningInputs.wrongStallAnswer(in, out);
        }
        if (in.target() == Target.HOST) {
            return out.status() == 421 || HardeningInputs.probe(in) ? null
                    : "HTTP " + out.status() + " to a foreign Host (must be 421: DNS rebinding)";
        }
        if (out.status() < 0) {
            // a connection closed without an answer: fine for broken HTTP framing and oversized bodies
            // (the server answers 413 and closes before reading the rest, which the client may see first)
            boolean oversized = in.body() != null && in.body().length > 64 * 1024;
            if (in.target() == Target.RAW || oversized || out.status() == -2) {
                note("closed without an answer: " + in.target(), in, out);
                return null;
            }
            return "connection closed without an answer (" + out.failure() + ")";
        }
        boolean toGateway = in.target() == Target.GATEWAY || in.target() == Target.RAW && in.path().startsWith("/a2a/");
        Integer agentStatus = hostileAgent.statusByCase.get(in.index());
        if (out.status() >= 500) {
            if (out.status() == 503 && out.header("retry-after") != null && toGateway) {
                return null; // the concurrency cap
            }
            if (out.status() == 503 && out.header("retry-after") != null && in.target() == Target.MCP) {
                return null; // the MCP door's session cap
            }
            if (out.status() == 503 && out.header("retry-after") != null && in.target() == Target.TRIGGER
                    && new String(out.body(), java.nio.charset.StandardCharsets.UTF_8).contains("turns waiting")) {
                return null; // a group's thread with its queue full: Alertmanager delivers it again later
            }
            if (toGateway && agentStatus != null && agentStatus == out.status()) {
                return null; // the agent's own JSON-RPC error, relayed with its status
            }
            return "HTTP " + out.status();
        }
        if (in.target() == Target.GATEWAY) {
            return wrongGatewayAnswer(in, out, agentStatus);
        }
        if (in.target() == Target.SLACK) {
            SlackInputs.Signing signing = SlackInputs.signing(in);
            if (signing == SlackInputs.Signing.VALID && out.status() == 401) {
                return "a validly signed request refused as unsigned";
            }
            if (signing != SlackInputs.Signing.VALID && out.status() != 401 && out.status() != 413) {
                return "HTTP " + out.status() + " to a " + signing + " request (must be 401)";
            }
        }
        if (in.target() == Target.TRIGGER && TriggerInputs.authorised(in) && (out.status() == 401 || out.status() == 415)) {
            return "HTTP " + out.status() + " with the trigger's token and a JSON Content-Type";
        }
        return null;
    }

    private String wrongGatewayAnswer(Input in, Reply out, Integer agentStatus) {
        if (out.status() == 204) {
            return null; // a notification
        }
        if (out.status() >= 400) {
            if (!isJsonRpc(out.body(), true)) {
                note("gateway " + out.status() + " without a JSON-RPC error body", in, out);
            }
            return null;
        }
        if (out.status() != 200) {
            return agentStatus != null && agentStatus == out.status() ? null : "HTTP " + out.status() + " from the gateway";
        }
        String type = out.header("content-type");
        if (agentStatus != null || (type != null && type.startsWith("text/event-stream")) || isJsonRpc(out.body(), false)) {
            return null; // the agent's reply relayed, or a JSON-RPC answer (error, or the echo agent's result)
        }
        return "HTTP 200 whose body is not a JSON-RPC response";
    }

    private static boolean isJsonRpc(byte[] body, boolean errorOnly) {
        try {
            JsonNode n = JSON.readTree(body);
            if (n == null || !n.isObject()) {
                return false;
            }
            boolean error = n.path("error").isObject() && n.path("error").path("code").isInt();
            return error || !errorOnly && n.has("result");
        } catch (Exception e) {
            return false;
        }
    }

    private void note(String what, Input in, Reply out) {
        notes.computeIfAbsent(what, k -> new AtomicInteger()).incrementAndGet();
        noteExamples.putIfAbsent(what, in + "\n  reply: " + out);
    }

    private void rememberThread(Input in, Reply out) {
        if (in.target() == Target.CHAT && out.status() == 201 && threads.size() < 200) {
            try {
                JsonNode n = JSON.readTree(out.body());
                if (n.hasNonNull("threadId")) {
                    threads.add(n.get("threadId").asText());
                }
            } catch (Exception e) {
                // not ours to judge here
            }
        }
    }

    /** Every ERROR event, kept (the first 200) with its logger and stack. */
    private static final class LogWatch extends AppenderBase<ILoggingEvent> {
        private final Vertx app;
        private final Vertx agents;
        private final Vertx fuzzer;

        private final Map<Long, Input> inFlight;

        private final java.util.function.LongFunction<String> agentReply;

        LogWatch(Vertx app, Vertx agents, Vertx fuzzer, Map<Long, Input> inFlight,
                java.util.function.LongFunction<String> agentReply) {
            this.inFlight = inFlight;
            this.agentReply = agentReply;
            this.app = app;
            this.agents = agents;
            this.fuzzer = fuzzer;
        }

        /** Which Vert.x instance logged (appenders run on the logging thread). */
        private String whose() {
            io.vertx.core.Context c = Vertx.currentContext();
            if (c == null) {
                return "no Vert.x context";
            }
            return c.owner() == app ? "Switchboard" : c.owner() == agents ? "test agents" : c.owner() == fuzzer ? "fuzz client"
                    : "other Vert.x";
        }

        private final ConcurrentLinkedQueue<String> unknown = new ConcurrentLinkedQueue<>();
        private final AtomicLong unknownCount = new AtomicLong();
        private final Map<String, AtomicInteger> kinds = new ConcurrentHashMap<>();
        private final Map<String, AtomicInteger> known = new ConcurrentHashMap<>();

        @Override
        protected void append(ILoggingEvent e) {
            if (!e.getLevel().isGreaterOrEqual(Level.ERROR)) {
                return;
            }
            String knownAs = KnownFindings.log(e);
            if (knownAs != null) {
                known.computeIfAbsent(knownAs, k -> new AtomicInteger()).incrementAndGet();
                return;
            }
            unknownCount.incrementAndGet();
            String kind = e.getLoggerName() + ": " + e.getFormattedMessage()
                    + (e.getThrowableProxy() == null ? "" : " / " + e.getThrowableProxy().getClassName() + ": "
                            + String.valueOf(e.getThrowableProxy().getMessage()).replaceAll("\\d+", "N"));
            if (kinds.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet() <= 2) {
                StringBuilder b = new StringBuilder(e.getLoggerName() + " [" + e.getThreadName() + ", " + whose() + "]: "
                        + e.getFormattedMessage());
                for (var t = e.getThrowableProxy(); t != null; t = t.getCause()) {
                    b.append("\n    ").append(t.getClassName()).append(": ").append(t.getMessage());
                    var frames = t.getStackTraceElementProxyArray();
                    for (int i = 0; i < frames.length; i++) {
                        StackTraceElement f = frames[i].getStackTraceElement();
                        if (i < 8 || f.getClassName().startsWith("dev.switchboard")) {
                            b.append("\n      at ").append(f);
                        }
                    }
                }
                if (e.getThrowableProxy() == null) {
                    // no exception: say which of our frames logged it (appenders run on the logging thread)
                    for (StackTraceElement f : Thread.currentThread().getStackTrace()) {
                        if (f.getClassName().startsWith("dev.switchboard") && !f.getClassName().startsWith("dev.switchboard.fuzz")) {
                            b.append("\n      from ").append(f);
                        }
                    }
                }
                List<Input> flying = List.copyOf(inFlight.values());
                if (flying.size() <= 2) {
                    flying.forEach(in -> b.append("\n      while in flight: ").append(in.toString().lines().findFirst().orElse("")));
                }
                b.append("\n      agent replies in flight: ").append(flying.stream().map(in -> agentReply.apply(in.index()))
                        .filter(java.util.Objects::nonNull).sorted().toList());
                unknown.add(b.toString());
            }
        }

        List<String> unknownErrors() {
            return List.copyOf(unknown);
        }

        Map<String, AtomicInteger> unknownKinds() {
            return kinds;
        }

        Map<String, AtomicInteger> knownErrors() {
            return known;
        }
    }
}
