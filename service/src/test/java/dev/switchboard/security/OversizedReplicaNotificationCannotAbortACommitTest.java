package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.bridge.SessionLeases;
import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.bridge.engine.Effect;
import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.bridge.engine.Session;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;
import dev.switchboard.protocol.kagent.StepCard;
import dev.switchboard.store.Database;
import dev.switchboard.store.TestPostgres;
import dev.switchboard.testing.PostgresTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Threat (L7): with several replicas on PostgreSQL, every post a step changes is announced with {@code pg_notify} in the
 * step's own transaction, and PostgreSQL refuses a payload of 8000 bytes or more by failing the statement, so the
 * transaction. A kagent agent chooses its tool calls' ids, and a step card's post id carries it: one 9000-byte id made
 * every commit of that thread's session fail (the step, the session, the turn's state: all lost, again at each retry).
 * Now such a step commits, session and all, and the other replica still learns of the post: told which thread to read
 * again when the post's id does not fit in a notification.
 */
@PostgresTest
class OversizedReplicaNotificationCannotAbortACommitTest {

    private static final Instant T0 = Instant.parse("2025-06-01T09:00:00Z");
    private static final Duration SETTLE = Duration.ofSeconds(60);

    /** what the other replica's listener was told: a thread, and the post to read (null: read the thread again) */
    private record Told(String threadId, String postId) {}

    @Test
    void aStepWhosePostIdOutgrowsANotificationCommitsAndTheOtherReplicaStillLearnsOfIt() throws Exception {
        try (Database db = Database.open(TestPostgres.get().newDatabase())) {
            SessionLeases owner = new SessionLeases(db.dataSource(), Duration.ofSeconds(30));
            SessionLeases other = new SessionLeases(db.dataSource(), Duration.ofSeconds(30));
            ChatStore store = new ChatStore(db.dataSource());
            store.fence(owner.replicaId());
            ChatStore otherStore = new ChatStore(db.dataSource());
            List<Told> told = new CopyOnWriteArrayList<>();
            try {
                other.listen((thread, post) -> told.add(new Told(thread, post)), thread -> {});
                store.createThread(new ChatThread("t", Platform.WEB, "ops", "ops", "ops", T0, T0));
                assertThat(owner.acquire("t")).isTrue();
                Session session = new Session("t", Platform.WEB, Dialect.KAGENT_V1, true, Duration.ofHours(1), "fingerprint");

                // the listener listens: an ordinary step's notification arrives (its LISTEN ran before the commit)
                // (a new step each time: one written before the LISTEN is not told again)
                AtomicInteger probes = new AtomicInteger();
                await("an ordinary notification arrives").atMost(SETTLE).pollInterval(Duration.ofMillis(100))
                        .until(() -> {
                            StepCard probe = new StepCard(StepCard.Kind.CALL, "probe-" + probes.incrementAndGet(),
                                    "get_pods", "{}", false);
                            store.commitStep("t", session, List.of(new Effect.ShowStep("m1", probe)), null,
                                    T0.plusSeconds(1));
                            return told.stream().anyMatch(t -> t.postId() != null && t.postId().contains("probe-"));
                        });

                // 9000 bytes of ASCII, and 9000 bytes in 4500 characters: the limit is PostgreSQL's, in bytes
                String asciiId = "call-" + "x".repeat(9000);
                String wideId = "call-" + "ü".repeat(4500);
                List<Post> changed = store.commitStep("t", session, List.of(
                        new Effect.ShowStep("m1", new StepCard(StepCard.Kind.CALL, asciiId, "get_pods", "{}", false)),
                        new Effect.ShowStep("m1", new StepCard(StepCard.Kind.CALL, wideId, "get_logs", "{}", false)),
                        new Effect.ShowStep("m1", new StepCard(StepCard.Kind.CALL, "call-2", "get_events", "{}", false))),
                        null, T0.plusSeconds(2));

                assertThat(changed).as("the step committed its three posts").hasSize(3);
                assertThat(store.session("t")).as("and the session with them").isPresent();
                for (Post p : changed) {
                    await("the other replica learns of " + p.id().substring(0, 12) + "…").atMost(SETTLE)
                            .pollInterval(Duration.ofMillis(50))
                            .until(() -> told.stream().anyMatch(t -> readable(otherStore, t, p.id())));
                }
                // the post whose id fits is still told by its id
                assertThat(told).anyMatch(t -> changed.get(2).id().equals(t.postId()));
            } finally {
                other.close();
                owner.close();
            }
        }
    }

    /** Whether what the listener was told leads the other replica to the post: by its id, or by its thread. */
    private static boolean readable(ChatStore store, Told t, String postId) {
        if (!t.threadId().equals("t")) {
            return false;
        }
        if (t.postId() != null) {
            return t.postId().equals(postId) && store.post(postId).isPresent();
        }
        Optional<Post> found = store.posts(t.threadId()).stream().filter(p -> p.id().equals(postId)).findFirst();
        return found.isPresent();
    }
}
