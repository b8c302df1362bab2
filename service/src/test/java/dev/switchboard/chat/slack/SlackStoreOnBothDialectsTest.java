package dev.switchboard.chat.slack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;
import dev.switchboard.store.Database;
import dev.switchboard.store.TestStore;
import dev.switchboard.testing.PostgresTest;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Issue 12: Slack's tables (event de-duplication, where posts are shown, side messages) on SQLite and PostgreSQL. */
@PostgresTest
@ParameterizedClass(name = "{0}")
@EnumSource(TestStore.class)
class SlackStoreOnBothDialectsTest {

    static final Instant T0 = Instant.parse("2025-06-01T09:00:00Z");

    @Parameter
    TestStore kind;

    @TempDir
    Path dir;

    Database db;
    ChatStore chats;
    SlackStore store;

    @BeforeEach
    void open() {
        db = kind.open(dir);
        chats = new ChatStore(db.dataSource());
        store = new SlackStore(chats);
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void anEventIsRecordedOnceKeptUntilHandledAndForgottenLater() {
        assertThat(store.recordEvent("app", "Ev1", "{\"a\":1}", T0)).isTrue();
        assertThat(store.recordEvent("app", "Ev1", "{\"a\":1}", T0.plusSeconds(1))).as("a redelivery").isFalse();
        assertThat(store.recordEvent("app", "Ev2", "{\"b\":2}", T0.plusSeconds(2))).isTrue();
        assertThat(store.recordEvent("other", "Ev3", "{}", T0)).isTrue();
        assertThat(store.unhandledEvents("app")).extracting(SlackStore.StoredEvent::eventId).containsExactly("Ev1", "Ev2");
        store.eventHandled("Ev1");
        assertThat(store.unhandledEvents("app")).extracting(SlackStore.StoredEvent::body).containsExactly("{\"b\":2}");
        store.forgetEventsBefore(T0.plusSeconds(10));
        // the handled one is forgotten; one not handled is kept whatever its age
        assertThat(store.recordEvent("app", "Ev1", "{}", T0.plusSeconds(11))).isTrue();
        assertThat(store.recordEvent("app", "Ev2", "{}", T0.plusSeconds(11))).isFalse();
    }

    @Test
    void partsArePostedOnceShownAndLookedUpAfterACrash() {
        store.posting("p1", 0, "C1", "100.1");
        store.posting("p1", 1, "C1", "100.1");
        store.posting("p1", 0, "C1", "ignored");
        assertThat(store.unposted()).extracting(SlackStore.ShownPart::part).containsExactlyInAnyOrder(0, 1);
        store.shown("p1", 0, "100.2", "text zero");
        store.completed("p1", "2025-06-01T09:00:01Z");
        assertThat(store.parts("p1")).extracting(SlackStore.ShownPart::threadTs).containsOnly("100.1");
        assertThat(store.parts("p1").get(0)).satisfies(p -> {
            assertThat(p.ts()).isEqualTo("100.2");
            assertThat(p.shownText()).isEqualTo("text zero");
            assertThat(p.shownUpdate()).isEqualTo("2025-06-01T09:00:01Z");
        });
        assertThat(store.unposted()).extracting(SlackStore.ShownPart::part).containsExactly(1);
    }

    @Test
    void postsNotShownInTheirLatestVersionAreFoundAndATurnsPostsListed() {
        chats.createThread(new ChatThread("100.1", Platform.SLACK, "C1", "b", "t", T0, T0.plusSeconds(5)));
        chats.createThread(new ChatThread("old", Platform.SLACK, "C1", "b", "t", T0, T0.minusSeconds(3600)));
        chats.write(c -> {
            chats.update(c, "INSERT INTO chat_post (post_id, thread_id, seq, kind, text, turn_message_id, state, created_at, "
                    + "updated_at) VALUES ('m1', '100.1', 1, 'user', 'hi', 'm1', 'running', ?, ?)", T0.toString(), T0.toString());
            chats.update(c, "INSERT INTO chat_post (post_id, thread_id, seq, kind, text, turn_message_id, created_at, "
                    + "updated_at) VALUES ('answer-m1', '100.1', 2, 'agent', 'yes', 'm1', ?, ?)", T0.toString(), T0.toString());
            chats.update(c, "INSERT INTO chat_post (post_id, thread_id, seq, kind, text, turn_message_id, created_at, "
                    + "updated_at) VALUES ('q1', '100.1', 3, 'question', 'which?', 'm1', ?, ?)", T0.toString(), T0.toString());
            return null;
        });
        assertThat(store.postsBehind(T0)).containsExactly("answer-m1", "q1");
        store.posting("answer-m1", 0, "C1", "100.1");
        store.completed("answer-m1", T0.toString());
        assertThat(store.postsBehind(T0)).containsExactly("q1");
        assertThat(store.turnPosts("m1")).extracting(Post::id).containsExactly("m1", "q1");
    }

    @Test
    void sideMessagesWaitInTheirTsOrderBytewiseAsInSqlite() {
        store.addSideMessage("t", "1712345678.000200", "U1", "second");
        store.addSideMessage("t", "1712345678.000100", "U2", "first");
        store.addSideMessage("t", "1712345678.000100", "U2", "a repeat");
        // ts is text: PostgreSQL compares it bytewise as SQLite does (an upper-case letter before a lower-case one)
        store.addSideMessage("u", "a", "U1", "lower");
        store.addSideMessage("u", "B", "U1", "upper");
        assertThat(store.sideMessageCount("t")).isEqualTo(2);
        assertThat(store.sideMessages("t", 10)).extracting(SlackStore.SideMessage::text).containsExactly("first", "second");
        assertThat(store.sideMessages("t", 1)).extracting(SlackStore.SideMessage::text).containsExactly("first");
        assertThat(store.sideMessages("u", 10)).extracting(SlackStore.SideMessage::text).containsExactly("upper", "lower");
        store.dropSideMessages("t", "1712345678.000100");
        assertThat(store.sideMessages("t", 10)).extracting(SlackStore.SideMessage::userId).containsExactly("U1");
        store.dropSideMessages("u", "a");
        assertThat(store.sideMessageCount("u")).isZero();
    }

    @Test
    void theStoreMapsOnlyWhatItWasGiven() {
        assertThat(store.parts("none")).isEmpty();
        assertThat(store.unhandledEvents("none")).isEmpty();
        assertThat(store.turnPosts("none")).isEqualTo(List.of());
    }
}
