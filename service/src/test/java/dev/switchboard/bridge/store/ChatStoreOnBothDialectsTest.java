package dev.switchboard.bridge.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.bridge.engine.Actor;
import dev.switchboard.bridge.engine.Effect;
import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.bridge.engine.Session;
import dev.switchboard.bridge.engine.TurnView;
import dev.switchboard.protocol.kagent.StepCard;
import dev.switchboard.store.Database;
import dev.switchboard.store.TestStore;
import dev.switchboard.testing.PostgresTest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 12: the chat store does the same on SQLite and on PostgreSQL — threads, posts in order, a post written once,
 * a turn's state on its posts, sessions and the pending ones, the group commit in which one failing write fails alone.
 */
@PostgresTest
@ParameterizedClass(name = "{0}")
@EnumSource(TestStore.class)
class ChatStoreOnBothDialectsTest {

    static final Instant T0 = Instant.parse("2025-06-01T09:00:00Z");

    @Parameter
    TestStore kind;

    @TempDir
    Path dir;

    Database db;
    ChatStore store;

    @BeforeEach
    void open() {
        db = kind.open(dir);
        store = new ChatStore(db.dataSource());
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void theStoreSaysItsDialect() {
        assertThat(db.dialect().name()).isEqualTo(kind.name());
    }

    @Test
    void threadsAreFoundByIdAndListedByChannelMostRecentFirst() {
        store.createThread(new ChatThread("a", Platform.WEB, "ch", "b", "first", T0, T0));
        store.createThread(new ChatThread("b", Platform.WEB, "ch", "b", "second", T0, T0.plusSeconds(5)));
        // timestamps are ISO-8601 text compared as text, bytewise, in both dialects (PostgreSQL's V7.1 makes its
        // collation "C"). Instant.toString writes no fraction when it is zero, so 09:00:00.500Z sorts before 09:00:00Z:
        // a quirk SQLite always had, kept (not changed here) and the same on PostgreSQL
        store.createThread(new ChatThread("c", Platform.WEB, "ch", "b", "third", T0, T0.plusMillis(500)));
        store.createThread(new ChatThread("d", Platform.SLACK, "ch", "b", "elsewhere", T0, T0.plusSeconds(9)));
        assertThat(store.thread("a")).get().extracting(ChatThread::title).isEqualTo("first");
        assertThat(store.thread("zz")).isEmpty();
        assertThat(store.threads(Platform.WEB, "ch", 10)).extracting(ChatThread::threadId).containsExactly("b", "a", "c");
        assertThat(store.threads(Platform.WEB, "ch", 1)).extracting(ChatThread::threadId).containsExactly("b");

        ChatThread kept = store.ensureThread(new ChatThread("a", Platform.WEB, "ch", "b", "not this title", T0, T0));
        assertThat(kept.title()).isEqualTo("first");
        assertThat(store.ensureThread(new ChatThread("e", Platform.WEB, "ch", "b", "new", T0, T0)).title()).isEqualTo("new");
    }

    @Test
    void postsAreNumberedInOrderAndAStepCardIsWrittenOnce() {
        store.createThread(new ChatThread("t", Platform.WEB, "ch", "b", "t", T0, T0));
        Session s = sample("busy.json");
        Actor ann = new Actor("u1", "Ann", "ann@example.com");
        Post user = new Post("m1", "t", 0, Post.USER, "hello", ann, "m1", "queued", T0, T0);
        StepCard card = new StepCard(StepCard.Kind.CALL, "call-1", "search", "{\"q\":\"x\"}", false);
        List<Post> changed = store.commitStep("t", s, List.of(new Effect.ShowAnswer("m1", "an answer"),
                new Effect.PostNotice("m1", "a notice"), new Effect.AskQuestion("m1", "which one?", "{\"k\":1}"),
                new Effect.ShowStep("m1", card)), user, T0.plusSeconds(1));
        assertThat(changed).extracting(Post::seq).containsExactly(1L, 2L, 3L, 4L, 5L);
        // the same step card again (a task read twice) adds nothing
        assertThat(store.commitStep("t", s, List.of(new Effect.ShowStep("m1", card)), null, T0.plusSeconds(2))).isEmpty();
        // an answer already shown is updated in place
        List<Post> updated = store.commitStep("t", s, List.of(new Effect.ShowAnswer("m1", "a longer answer")), null,
                T0.plusSeconds(3));
        assertThat(updated).singleElement().satisfies(p -> {
            assertThat(p.id()).isEqualTo("answer-m1");
            assertThat(p.seq()).isEqualTo(2);
            assertThat(p.text()).isEqualTo("a longer answer");
            assertThat(p.updatedAt()).isEqualTo(T0.plusSeconds(3));
        });
        List<Post> all = store.posts("t");
        assertThat(all).extracting(Post::kind)
                .containsExactly(Post.USER, Post.AGENT, Post.NOTICE, Post.QUESTION, Post.STEP);
        assertThat(all.get(0).author()).isEqualTo(ann);
        assertThat(all.get(1).author()).isNull();
        assertThat(all.get(3).data()).isEqualTo("{\"k\":1}");
        assertThat(store.post("m1")).get().extracting(Post::text).isEqualTo("hello");
        assertThat(store.thread("t").orElseThrow().lastActivity()).isEqualTo(T0.plusSeconds(1));
    }

    @Test
    void aTurnsStateIsShownOnItsPostsAndAReplyBecomingATurnFollowsItsOwn() {
        store.createThread(new ChatThread("t", Platform.WEB, "ch", "b", "t", T0, T0));
        Session s = sample("busy.json");
        store.commitStep("t", s, List.of(), new Post("m1", "t", 0, Post.USER, "first", null, "m1", "queued", T0, T0), T0);
        // a reply taken as the answer to m1's question: it shows m1's state
        store.commitStep("t", s, List.of(), new Post("r1", "t", 0, Post.USER, "reply", null, "m1", "queued", T0, T0), T0);
        List<Post> changed = store.commitStep("t", s, List.of(new Effect.TurnStateChanged("m1", TurnView.RUNNING)), null,
                T0.plusSeconds(1));
        assertThat(changed).extracting(Post::id).containsExactlyInAnyOrder("m1", "r1");
        assertThat(changed).extracting(Post::state).containsOnly("running");
        // r1 becomes a turn of its own: only it changes
        changed = store.commitStep("t", s, List.of(new Effect.TurnStateChanged("r1", TurnView.COMPLETED)), null,
                T0.plusSeconds(2));
        assertThat(changed).extracting(Post::id).containsExactly("r1");
        assertThat(store.post("r1").orElseThrow().turnMessageId()).isEqualTo("r1");
        assertThat(store.post("m1").orElseThrow().state()).isEqualTo("running");
    }

    /** Issue 22, H1: a post id that turned up in another thread (planted, or a bug) is never written for this one. */
    @Test
    void aStepWritesOnlyItsOwnThreadsPosts() {
        store.createThread(new ChatThread("victim", Platform.WEB, "ch", "b", "v", T0, T0));
        store.createThread(new ChatThread("other", Platform.WEB, "ch", "b", "o", T0, T0));
        Session s = sample("busy.json");
        store.commitStep("victim", s, List.of(), new Post("m1", "victim", 0, Post.USER, "mine", null, "m1", "queued", T0, T0),
                T0);
        // in another thread: a person's post named like m1's answer, and one that claims to belong to turn m1
        store.commitStep("other", s, List.of(), new Post("answer-m1", "other", 0, Post.USER, "planted", null, "answer-m1",
                "queued", T0, T0), T0);
        store.commitStep("other", s, List.of(), new Post("r1", "other", 0, Post.USER, "claims m1", null, "m1", "queued",
                T0, T0), T0);

        List<Post> changed = store.commitStep("victim", s, List.of(new Effect.TurnStateChanged("m1", TurnView.RUNNING)),
                null, T0.plusSeconds(1));
        assertThat(changed).extracting(Post::id).containsExactly("m1");
        assertThat(store.post("r1").orElseThrow().state()).isEqualTo("queued");
        // the answer cannot be written where the planted post is: the step fails, and nothing of the other thread changes
        assertThatThrownBy(() -> store.commitStep("victim", s, List.of(new Effect.ShowAnswer("m1", "the secret")), null,
                T0.plusSeconds(2)));
        assertThat(store.post("answer-m1").orElseThrow().text()).isEqualTo("planted");
        assertThat(store.post("other", "answer-m1")).isPresent();
        assertThat(store.post("victim", "answer-m1")).isEmpty();
    }

    @Test
    void sessionsAreReadAsWrittenAndTheUnfinishedOnesArePendingOldestFirst() {
        for (String t : List.of("t1", "t2", "t3")) {
            store.createThread(new ChatThread(t, Platform.WEB, "ch", "b", t, T0, T0));
        }
        Session busy = sample("busy.json");
        Session idle = sample("idle.json");
        assertThat(idle.idle()).isTrue();
        assertThat(busy.idle()).isFalse();
        store.commitStep("t2", busy, List.of(), null, T0.plusSeconds(2));
        store.commitStep("t1", busy, List.of(), null, T0.plusSeconds(1));
        store.commitStep("t3", idle, List.of(), null, T0);
        assertThat(store.session("t3")).contains(idle);
        assertThat(store.session("t1")).contains(busy);
        assertThat(store.session("none")).isEmpty();
        assertThat(store.pendingSessions()).containsOnlyKeys("t1", "t2");
        assertThat(new ArrayList<>(store.pendingSessions().keySet())).containsExactly("t1", "t2");
        // finished: no longer pending
        store.commitStep("t1", idle, List.of(), null, T0.plusSeconds(3));
        assertThat(store.pendingSessions()).containsOnlyKeys("t2");
    }

    @Test
    void aFailingWriteFailsAloneInTheGroupCommitAndTheWriterGoesOn() throws Exception {
        store.createThread(new ChatThread("t", Platform.WEB, "ch", "b", "t", T0, T0));
        // a post of a thread that is not there breaks the foreign key; a duplicate thread breaks the primary key
        assertThatThrownBy(() -> store.createThread(new ChatThread("t", Platform.WEB, "ch", "b", "again", T0, T0)));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> writes = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                int n = i;
                writes.add(pool.submit(() -> {
                    String id = n % 10 == 0 ? "t" : "t" + n; // every tenth is a duplicate and must fail alone
                    try {
                        store.createThread(new ChatThread(id, Platform.WEB, "ch", "b", "t", T0, T0.plusSeconds(n)));
                        return true;
                    } catch (RuntimeException e) {
                        return false;
                    }
                }));
            }
            int ok = 0;
            for (Future<Boolean> f : writes) {
                ok += f.get(60, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(ok).isEqualTo(180);
        } finally {
            pool.shutdownNow();
        }
        assertThat(store.threads(Platform.WEB, "ch", 1000)).hasSize(181);
        // and a plain write after them all
        store.createThread(new ChatThread("last", Platform.WEB, "ch", "b", "t", T0, T0));
        assertThat(store.thread("last")).isPresent();
    }

    @Test
    void writesOfOneThreadFromManyThreadsNumberItsPostsWithoutGaps() throws Exception {
        store.createThread(new ChatThread("t", Platform.WEB, "ch", "b", "t", T0, T0));
        Session s = sample("busy.json");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> writes = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                writes.add(pool.submit(() -> store.commitStep("t", s,
                        List.of(new Effect.PostNotice("m1", "n")), null, T0)));
            }
            for (Future<?> f : writes) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(store.posts("t")).extracting(Post::seq)
                .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, 100).boxed().toList());
    }

    static Session sample(String name) {
        try (InputStream in = ChatStoreOnBothDialectsTest.class.getResourceAsStream("v2/" + name)) {
            return SessionFormat.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
