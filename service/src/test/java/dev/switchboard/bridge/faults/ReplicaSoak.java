package dev.switchboard.bridge.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.switchboard.bridge.engine.Notices;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ChatApi.Post;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.bridge.support.ServiceProcess;
import dev.switchboard.bridge.support.Teardown;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.store.TestPostgres;
import dev.switchboard.testing.PostgresTest;
import dev.switchboard.testing.ProcessTest;
import dev.switchboard.testkit.Recorder;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replica soak (issue 12, point 7): three replicas of the packaged service, each its own process on its own port,
 * on one PostgreSQL database ({@link TestPostgres}), {@code leaseDuration: 3s}; {@code soak.turns} (default 500) turns
 * in {@value #THREADS} threads, each message posted to a live replica picked at random, against {@link FaultSoak}'s
 * chaotic A2A 1.0 agent ({@value FaultSoak#CHAOS}, deduplicating messageIds), while {@value #KILLS} SIGKILLs rotate
 * among the replicas (each killed one is started again at once, the others take its sessions over).
 *
 * <p>Must hold, as in the fault soak: 0 lost turns and 0 messageIds executed twice.
 *
 * <p>Not in the default build: {@code ./mvnw -B -o -pl service -am verify -Psoak-replicas} (the profile runs only this
 * class, in failsafe, after {@code package} built the jar). Figures go to stdout and to
 * {@code target/replica-soak/figures.txt}.
 */
@ProcessTest
@PostgresTest
class ReplicaSoak {

    static final int REPLICAS = 3;
    static final int THREADS = 25;
    static final int KILLS = 10;
    static final Duration LEASE = Duration.ofSeconds(3);
    private static final Duration RUN_DEADLINE = Duration.ofMinutes(20);

    @TempDir
    Path dir;

    Vertx vertx;
    TestAgent agent;
    Path logs;
    final List<ServiceProcess> replicas = new ArrayList<>();
    final List<ChatApi> chats = new ArrayList<>();
    /** 1 while replica i serves */
    final AtomicIntegerArray alive = new AtomicIntegerArray(REPLICAS);

    @BeforeEach
    void start() throws Exception {
        assumeTrue(System.getProperty(ServiceProcess.JAR_PROPERTY) != null,
                "the replica soak runs in failsafe (-Psoak-replicas), which names the packaged jar");
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("chaos").withVersions(ProtocolVersion.V1_0)
                .withDedupe(true).withDefaultBehavior(FaultSoak.CHAOS), 0).await();
        String store = TestPostgres.get().newDatabase();
        logs = Files.createDirectories(Path.of("target", "replica-soak"));
        for (int i = 0; i < REPLICAS; i++) {
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort(); // the same port across restarts
            }
            Path config = dir.resolve("replica-" + i + ".yaml");
            Files.writeString(config, FaultSoak.soakConfig(port, store,
                    "bridge: {leaseDuration: " + LEASE.toMillis() + "ms}", agent.url()));
            replicas.add(new ServiceProcess(config, logs.resolve("replica-" + i)));
            chats.add(new ChatApi(replicas.get(i).start()));
            alive.set(i, 1);
        }
    }

    @AfterEach
    void stop() throws Exception {
        Teardown.stop(replicas, agent, vertx);
    }

    /** A live replica, picked at random for each call (a kill between the pick and the call is retried by the caller). */
    private ChatApi anyLive() {
        List<Integer> live = new ArrayList<>();
        for (int i = 0; i < REPLICAS; i++) {
            if (alive.get(i) == 1) {
                live.add(i);
            }
        }
        return chats.get(live.get(ThreadLocalRandom.current().nextInt(live.size())));
    }

    @Test
    void turnsOnRandomReplicasSurviveAChaoticAgentAndRotatingSigkills() throws Exception {
        int turns = Integer.getInteger("soak.turns", 500);
        Instant started = Instant.now();
        Supplier<ChatApi> any = this::anyLive;

        // every thread is opened before the first kill: a thread-opening POST cut by a kill could not be told apart
        List<Sent> firsts = new ArrayList<>();
        Map<String, String> texts = Collections.synchronizedMap(new LinkedHashMap<>()); // messageId → text
        Map<String, String> threadOf = Collections.synchronizedMap(new LinkedHashMap<>());
        for (int t = 0; t < THREADS; t++) {
            String text = "thread " + t + ", turn 0";
            Sent sent = chats.get(t % REPLICAS).newThread("chaos", text);
            firsts.add(sent);
            texts.put(sent.messageId(), text);
            threadOf.put(sent.messageId(), sent.threadId());
        }
        List<String> threads = firsts.stream().map(Sent::threadId).toList();

        // the people, as in the fault soak, but each message (and each look at the thread) goes to a random live replica
        AtomicInteger ended = new AtomicInteger();
        int perThread = turns / THREADS;
        ExecutorService people = Executors.newFixedThreadPool(THREADS);
        List<Future<?>> work = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int n = t;
            String threadId = firsts.get(t).threadId();
            String firstId = firsts.get(t).messageId();
            work.add(people.submit(() -> {
                FaultSoak.awaitFinal(any, threadId, firstId);
                ended.incrementAndGet();
                for (int k = 1; k < perThread; k += 2) {
                    List<String> pair = new ArrayList<>();
                    for (int j = k; j < Math.min(k + 2, perThread); j++) {
                        String text = "thread " + n + ", turn " + j;
                        String messageId = FaultSoak.post(any, threadId, "replica-soak-" + n + "-" + j, text);
                        texts.put(messageId, text);
                        threadOf.put(messageId, threadId);
                        pair.add(messageId);
                    }
                    for (String messageId : pair) {
                        FaultSoak.awaitFinal(any, threadId, messageId);
                        ended.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        // the killer: whenever another eleventh of the turns has ended, SIGKILL the next replica and start it again
        int step = turns / (KILLS + 1);
        List<Long> restartMillis = new ArrayList<>();
        for (int k = 1; k <= KILLS; k++) {
            int target = k * step;
            Awaitility.await("turn " + target + " to end before kill " + k).atMost(RUN_DEADLINE)
                    .pollInterval(Duration.ofMillis(20)).until(() -> ended.get() >= target);
            int victim = (k - 1) % REPLICAS;
            alive.set(victim, 0);
            replicas.get(victim).kill();
            long t0 = System.nanoTime();
            replicas.get(victim).start();
            restartMillis.add((System.nanoTime() - t0) / 1_000_000);
            alive.set(victim, 1);
        }
        people.shutdown();
        for (Future<?> f : work) {
            f.get(RUN_DEADLINE.toMinutes(), TimeUnit.MINUTES);
        }
        Duration took = Duration.between(started, Instant.now());

        // ================= the figures =================
        Map<String, List<Post>> posts = new LinkedHashMap<>();
        threads.forEach(t -> posts.put(t, anyLive().posts(t)));
        List<String> lost = new ArrayList<>();
        Map<String, Integer> outcomes = new LinkedHashMap<>();
        for (var e : texts.entrySet()) {
            String problem = FaultSoak.problem(e.getKey(), e.getValue(), posts.get(threadOf.get(e.getKey())));
            if (problem != null) {
                lost.add(e.getKey() + ": " + problem);
            }
            posts.get(threadOf.get(e.getKey())).stream().filter(p -> p.isUser() && p.id().equals(e.getKey())).findFirst()
                    .ifPresent(p -> outcomes.merge(p.state(), 1, Integer::sum));
        }
        Recorder recorder = agent.recorder();
        Map<String, Long> executions = recorder.executedMessageIds().stream()
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        List<String> ranTwice = executions.entrySet().stream().filter(x -> x.getValue() > 1).map(Map.Entry::getKey).toList();
        Map<String, Long> received = recorder.messageIds().stream()
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        long resent = received.values().stream().filter(n -> n > 1).count();
        Map<String, Long> methods = recorder.rpcMethods().stream()
                .collect(Collectors.groupingBy(Function.identity(), LinkedHashMap::new, Collectors.counting()));
        long busyNotices = posts.values().stream().flatMap(List::stream)
                .filter(p -> "notice".equals(p.kind()) && Notices.BUSY.equals(p.text())).count();
        long takeovers = 0;
        for (int i = 0; i < REPLICAS; i++) {
            try (var files = Files.list(logs.resolve("replica-" + i))) {
                for (Path f : files.filter(f -> f.toString().endsWith(".err")).toList()) {
                    takeovers += Files.readString(f).lines().filter(l -> l.contains("takes over thread")).count();
                }
            }
        }
        String figures = """
                replica soak: %d turns in %d threads on %d replicas (PostgreSQL, leaseDuration %d ms), agent A2A 1.0 "%s"
                  (deduplicates messageIds); each message posted to a random live replica
                  kills (SIGKILL):      %d, rotating among the replicas, each restarted at once (restarts took %s ms)
                  takeovers logged:     %d (a session with unfinished turns taken, its lease expired, by a live or restarted replica)
                  duration:             %d s
                  outcomes:             %s
                  lost turns:           %d
                  executed twice:       %d
                  messageIds resent:    %d (received more than once; %d sends for %d turns)
                  agent calls:          %s
                  busy notices:         %d
                """.formatted(texts.size(), THREADS, REPLICAS, LEASE.toMillis(), FaultSoak.CHAOS, restartMillis.size(),
                restartMillis, takeovers, took.toSeconds(), outcomes, lost.size(), ranTwice.size(), resent,
                recorder.messageIds().size(), texts.size(), methods, busyNotices);
        System.out.println(figures);
        Files.writeString(logs.resolve("figures.txt"), figures + (lost.isEmpty() ? "" : "lost:\n  "
                + String.join("\n  ", lost) + "\n") + (ranTwice.isEmpty() ? "" : "executed twice: " + ranTwice + "\n"));

        assertThat(texts).hasSize(perThread * THREADS);
        assertThat(restartMillis).hasSize(KILLS);
        assertThat(lost).as("lost turns").isEmpty();
        assertThat(ranTwice).as("messageIds the agent executed twice").isEmpty();
        assertThat(executions.keySet()).as("every turn ran on the agent").containsAll(texts.keySet());
    }
}
