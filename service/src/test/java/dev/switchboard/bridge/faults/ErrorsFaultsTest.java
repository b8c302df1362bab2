package dev.switchboard.bridge.faults;

import static dev.switchboard.bridge.faults.FaultBridge.BACKOFF_MAX;
import static dev.switchboard.bridge.faults.FaultBridge.BUSY_NOTICE_AFTER;
import static dev.switchboard.bridge.faults.FaultBridge.GIVE_UP_AFTER;
import static dev.switchboard.bridge.faults.FaultBridge.RESPONSE_HEADERS;
import static dev.switchboard.bridge.faults.FaultBridge.RETRY_AFTER_MAX;
import static dev.switchboard.bridge.faults.FaultBridge.channel;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.bridge.engine.Notices;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ChatApi.Post;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgentOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The seed's Errors table (B11), row by row, against testkit agents that answer with each error, over
 * real HTTP with the contract's durations shortened (15 min → 3 s, 2 min → 1 s, 30 s → 1 s): what the
 * thread shows, and what the agent received.
 */
@ServerTest
class ErrorsFaultsTest extends FaultTest {

    private static final Duration SLACK = Duration.ofMillis(150);
    private static final String CREDENTIALS = "switchboard_credential_rejections_total";

    @Override
    FaultBridge.Builder agents(FaultBridge.Builder builder) {
        return builder.echoPerVersion()
                .agent("trap", TestAgentOptions.echo("trap"));
    }

    // ================= HTTP 401 or 403, at any call =================

    @ParameterizedTest
    @ValueSource(ints = {401, 403})
    void credentialsRejectedFailTheTurnWithoutARetryAndAreCountedByBackendAndBinding(int status) {
        Map<String, String> labels = Map.of("backend", "v10", "binding", "web-v10");
        double before = bridge.counter(CREDENTIALS, labels);

        Sent sent = chat.newThread("v10", "/http " + status);

        Post post = chat.awaitFinal(sent);
        assertThat(post.state()).isEqualTo("not_delivered");
        assertThat(chat.notices(sent.threadId(), sent.messageId())).containsExactly(Notices.CREDENTIALS_REJECTED);
        assertNoMoreSends("v10", sent.messageId(), 1);
        assertThat(bridge.counter(CREDENTIALS, labels)).isEqualTo(before + 1);
    }

    // ================= JSON-RPC -31403 =================

    @Test
    void identityRefusedFailsTheTurnWithoutShowingTheAgentsMessage() {
        Sent sent = chat.newThread("v10", "/error -31403 user 42 may not use session 7");

        Post post = chat.awaitFinal(sent);
        assertThat(post.state()).isEqualTo("not_delivered");
        assertThat(chat.notices(sent.threadId(), sent.messageId())).containsExactly(Notices.IDENTITY_REFUSED);
        assertNoMoreSends("v10", sent.messageId(), 1);
        assertNothingShownFromTheAgent(sent.threadId(), "session 7");
    }

    // ================= JSON-RPC -32004 to a send =================

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void busyIsSentAgainWithTheSameMessageIdAndTheThreadIsToldOnceAfterBusyNoticeAfter(ProtocolVersion v) {
        // twelve refusals, 300 ms apart: longer than busyNoticeAfter (1 s), and than giveUpAfter (3 s), which
        // does not apply: a busy agent is waited for as long as it takes
        Sent sent = chat.newThread(channel(v), "/busy 12\npatience");

        chat.awaitState(sent, "retrying");
        Post post = chat.awaitFinal(sent);
        assertThat(post.state()).isEqualTo("completed");
        assertThat(chat.answer(sent.threadId(), sent.messageId())).isEqualTo("patience");
        List<RecordedRequest> sends = sends(channel(v), sent.messageId());
        assertThat(Duration.between(sends.get(0).receivedAt(), sends.get(sends.size() - 1).receivedAt()))
                .isGreaterThan(GIVE_UP_AFTER);
        assertThat(sends).as("twelve refused, the thirteenth taken").hasSize(13)
                .allSatisfy(r -> assertThat(r.contextId()).as("a first turn has no context").isNull());
        assertThat(bridge.recorder(channel(v)).executedMessageIds()).containsOnlyOnce(sent.messageId());
        for (int i = 1; i < sends.size(); i++) {
            assertThat(Duration.between(sends.get(i - 1).receivedAt(), sends.get(i).receivedAt()))
                    .as("a backoff before each resend").isGreaterThanOrEqualTo(BACKOFF_MAX.minus(SLACK));
        }
        List<Post> busy = chat.posts(sent.threadId(), sent.messageId(), "notice");
        assertThat(busy).extracting(Post::text).containsExactly(Notices.BUSY);
        assertThat(Duration.between(sends.get(0).receivedAt(), busy.get(0).createdAt()))
                .as("told after busyNoticeAfter").isGreaterThanOrEqualTo(BUSY_NOTICE_AFTER.minus(SLACK));
    }

    @Test
    void aShortBusySpellIsNotTold() {
        Sent sent = chat.newThread("v10", "/busy 2\nsoon");

        assertThat(chat.awaitFinal(sent).state()).isEqualTo("completed");
        List<RecordedRequest> sends = sends("v10", sent.messageId());
        assertThat(sends).hasSize(3);
        // the spell is two backoffs long, well under busyNoticeAfter — unless a loaded machine stretched it; then
        // the thread must have been told, as for any spell that long (the boundary itself proves nothing either way)
        Duration spell = Duration.between(sends.get(0).receivedAt(), sends.get(2).receivedAt());
        List<String> notices = chat.notices(sent.threadId(), sent.messageId());
        if (spell.compareTo(BUSY_NOTICE_AFTER.minus(SLACK)) < 0) {
            assertThat(notices).as("a %d ms spell", spell.toMillis()).isEmpty();
        } else if (spell.compareTo(BUSY_NOTICE_AFTER.plus(SLACK)) > 0) {
            assertThat(notices).as("a %d ms spell", spell.toMillis()).containsExactly(Notices.BUSY);
        }
    }

    // ================= -32001 while a task is followed =================

    @ParameterizedTest
    @EnumSource(ProtocolVersion.class)
    void taskNotFoundWhileFollowingEndsTheSessionAndTheNextTurnStartsANewContext(ProtocolVersion v) {
        String name = channel(v);
        Sent first = chat.newThread(name, "a context first");
        chat.awaitState(first, "completed");
        Sent second = chat.send(first.threadId(), "still here");
        chat.awaitState(second, "completed");
        String context = sends(name, second.messageId()).get(0).contextId();
        assertThat(context).isNotNull();

        // the stream drops after the first event and the agent forgets the task (it "restarted")
        Sent vanished = chat.send(first.threadId(), "/vanish 1");
        Post post = chat.awaitFinal(vanished);
        assertThat(post.state()).isEqualTo("failed");
        assertThat(chat.notices(first.threadId(), vanished.messageId())).containsExactly(Notices.SESSION_GONE);
        assertThat(bridge.recorder(name).rpcMethods()).contains(v == ProtocolVersion.V1_0 ? "GetTask" : "tasks/get");

        Sent next = chat.send(first.threadId(), "start over");
        chat.awaitState(next, "completed");
        assertThat(sends(name, vanished.messageId())).singleElement()
                .satisfies(r -> assertThat(r.contextId()).isEqualTo(context));
        assertThat(sends(name, next.messageId())).singleElement()
                .satisfies(r -> assertThat(r.contextId()).as("a new context: none sent").isNull());
    }

    // ================= another 4xx before any event; 3xx =================

    @Test
    void anotherClientErrorIsRetriedThenFailsAfterGiveUpAfter() {
        // each status in a thread of its own, all at once (each takes giveUpAfter)
        Map<Integer, Sent> sent = new java.util.LinkedHashMap<>();
        for (int status : new int[] {400, 404, 422}) {
            sent.put(status, chat.newThread("v10", "/http " + status));
        }
        for (var e : sent.entrySet()) {
            Sent s = e.getValue();
            Post post = chat.awaitFinal(s);
            assertThat(post.state()).as("HTTP %d", e.getKey()).isEqualTo("not_delivered");
            assertThat(chat.notices(s.threadId(), s.messageId())).as("HTTP %d", e.getKey())
                    .containsExactly(Notices.refused("the agent did not accept it"));
            List<RecordedRequest> sends = sends("v10", s.messageId());
            assertThat(sends).as("HTTP %d retried", e.getKey()).hasSizeGreaterThanOrEqualTo(3);
            Post notice = chat.posts(s.threadId(), s.messageId(), "notice").get(0);
            assertThat(Duration.between(sends.get(0).receivedAt(), notice.createdAt()))
                    .as("HTTP %d failed after giveUpAfter", e.getKey()).isGreaterThanOrEqualTo(GIVE_UP_AFTER.minus(SLACK));
            assertNoMoreSends("v10", s.messageId(), sends.size());
        }
    }

    @Test
    void aRedirectIsAFailedCallAndIsNeverFollowed() {
        String elsewhere = bridge.agent("trap").url();
        Sent sent = chat.newThread("v10", "/redirect 302 " + elsewhere);

        Post post = chat.awaitFinal(sent);
        assertThat(post.state()).isEqualTo("not_delivered");
        assertThat(chat.notices(sent.threadId(), sent.messageId()))
                .containsExactly(Notices.refused("the agent did not accept it"));
        assertThat(sends("v10", sent.messageId())).hasSizeGreaterThanOrEqualTo(2);
        assertThat(bridge.recorder("trap").requests()).as("the Location was never called").isEmpty();
    }

    // ================= HTTP 5xx, or a dropped connection, before any event =================

    @ParameterizedTest
    @ValueSource(ints = {500, 503, 429})
    void aServerErrorBeforeAnyEventIsLookedUpWithListTasksThenSentAgain(int status) {
        String context = contextOf(chat.newThread("v10", "a context first"));
        Sent first = lastThread;
        Sent sent = chat.send(first.threadId(), "/first 1 /http " + status + "\nsecond try");

        chat.awaitState(sent, "completed");
        assertThat(chat.answer(first.threadId(), sent.messageId())).isEqualTo("second try");
        List<RecordedRequest> calls = callsAbout("v10", sent.messageId(), context);
        assertThat(calls).extracting(RecordedRequest::rpcMethod)
                .containsExactly("SendStreamingMessage", "ListTasks", "SendStreamingMessage", "GetTask");
        JsonNode list = ChatApi.read(calls.get(1).body()).path("params");
        assertThat(list.path("contextId").asText()).isEqualTo(context);
        assertThat(calls.get(2).messageId()).as("sent again with the same messageId").isEqualTo(sent.messageId());
        assertThat(calls.get(2).contextId()).isEqualTo(context);
    }

    @Test
    void aServerErrorWhileTheTaskRunsAnywayIsFoundWithListTasksAndFollowedNotSentAgain() {
        String context = contextOf(chat.newThread("v10", "a context first"));
        Sent first = lastThread;
        Sent sent = chat.send(first.threadId(), "/orphan 503 /slow 3000\nran anyway");

        chat.awaitState(sent, "completed");
        assertThat(chat.answer(first.threadId(), sent.messageId())).isEqualTo("ran anyway");
        assertThat(sends("v10", sent.messageId())).as("found: not sent again").hasSize(1);
        assertThat(bridge.recorder("v10").executedMessageIds()).containsOnlyOnce(sent.messageId());
        List<String> methods = callsAbout("v10", sent.messageId(), context).stream().map(RecordedRequest::rpcMethod).toList();
        assertThat(methods).startsWith("SendStreamingMessage", "ListTasks").contains("SubscribeToTask");
    }

    @Test
    void aFirstTurnOfUnknownOutcomeHasNoContextToLookInAndIsSentAgain() {
        Sent sent = chat.newThread("v10", "/first 1 /http 502\nagain");

        chat.awaitState(sent, "completed");
        List<RecordedRequest> sends = sends("v10", sent.messageId());
        assertThat(sends).hasSize(2);
        List<RecordedRequest> all = bridge.recorder("v10").rpcRequests();
        assertThat(all.subList(all.indexOf(sends.get(0)), all.indexOf(sends.get(1))))
                .extracting(RecordedRequest::rpcMethod).as("nothing to look in between the two sends")
                .containsExactly("SendStreamingMessage");
    }

    @Test
    void anA2a03AgentIsNeverAskedItsTurnsAreSentAgainAndMayRunTwice() {
        Sent first = chat.newThread("v03", "a context first");
        chat.awaitState(first, "completed");
        // the connection drops before any event, while the task runs on the agent
        Sent sent = chat.send(first.threadId(), "/first 1 /drop 0 /echo\ntwice");

        chat.awaitState(sent, "completed");
        assertThat(chat.answer(first.threadId(), sent.messageId())).isEqualTo("twice");
        assertThat(sends("v03", sent.messageId())).hasSize(2);
        assertThat(bridge.recorder("v03").executedMessageIds()).as("0.3: no lookup, so it ran twice")
                .containsSubsequence(sent.messageId(), sent.messageId());
        assertThat(bridge.recorder("v03").rpcMethods()).doesNotContain("ListTasks", "tasks/list");
    }

    @Test
    void responseHeadersLaterThanTheLimitAreALostConnectionAndTheTurnIsSentAgain() {
        Sent sent = chat.newThread("v10", "/first 1 /hold " + RESPONSE_HEADERS.plusMillis(700).toMillis() + "\nheld");

        chat.awaitState(sent, "completed");
        assertThat(chat.answer(sent.threadId(), sent.messageId())).isEqualTo("held");
        List<RecordedRequest> sends = sends("v10", sent.messageId());
        assertThat(sends).hasSize(2);
        assertThat(Duration.between(sends.get(0).receivedAt(), sends.get(1).receivedAt()))
                .as("given up after responseHeaders").isGreaterThanOrEqualTo(RESPONSE_HEADERS);
    }

    // ================= Retry-After =================

    @Test
    void aRetryAfterIsHonouredOnReconnectsUpToTheCap() {
        // 1 s, longer than the 300 ms backoff; a day, capped at retryAfterMax (5 s); and on a busy refusal
        Sent second = chat.newThread("v10", "/first 1 /retryafter 1 /http 503\nafter a second");
        Sent day = chat.newThread("v10", "/first 1 /retryafter 86400 /http 503\nnot a day later");
        Sent busy = chat.newThread("v10", "/retryafter 1 /busy 1\nbusy for a second");

        for (Sent s : List.of(second, day, busy)) {
            chat.awaitState(s, "completed");
        }
        // the upper bounds leave seconds for a busy machine: they only tell "honoured" from "capped" from "a day"
        assertThat(gap("v10", second.messageId())).isGreaterThanOrEqualTo(Duration.ofSeconds(1))
                .as("honoured, not capped").isLessThan(RETRY_AFTER_MAX);
        assertThat(gap("v10", day.messageId())).as("capped at retryAfterMax")
                .isGreaterThanOrEqualTo(RETRY_AFTER_MAX).isLessThan(RETRY_AFTER_MAX.multipliedBy(2));
        assertThat(gap("v10", busy.messageId())).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
    }

    /** The time between the first two sends of a messageId. */
    private Duration gap(String agent, String messageId) {
        List<RecordedRequest> sends = sends(agent, messageId);
        assertThat(sends).hasSizeGreaterThanOrEqualTo(2);
        return Duration.between(sends.get(0).receivedAt(), sends.get(1).receivedAt());
    }

    // ================= helpers =================

    private Sent lastThread;

    /** Runs a first turn to completion and returns the context the agent gave the thread. */
    private String contextOf(Sent first) {
        lastThread = first;
        chat.awaitState(first, "completed");
        Sent probe = chat.send(first.threadId(), "which context?");
        chat.awaitState(probe, "completed");
        String context = sends("v10", probe.messageId()).get(0).contextId();
        assertThat(context).isNotNull();
        return context;
    }

    /** The calls from the first send of {@code messageId} on that are about it or its context (sends, ListTasks, GetTask…). */
    private List<RecordedRequest> callsAbout(String agent, String messageId, String context) {
        List<RecordedRequest> all = bridge.recorder(agent).rpcRequests();
        int from = 0;
        while (from < all.size() && !messageId.equals(all.get(from).messageId())) {
            from++;
        }
        return all.subList(from, all.size()).stream()
                .filter(r -> messageId.equals(r.messageId()) || r.body().contains(context) || r.messageId() == null)
                .toList();
    }

    /** No send of {@code messageId} beyond {@code expected} arrives for a while after the turn ended. */
    private void assertNoMoreSends(String agent, String messageId, int expected) {
        Awaitility.await("no resend of " + messageId).during(BACKOFF_MAX.multipliedBy(3))
                .until(() -> sends(agent, messageId).size() == expected);
    }

    private void assertNothingShownFromTheAgent(String threadId, String secret) {
        assertThat(chat.posts(threadId)).filteredOn(p -> !p.isUser()).extracting(Post::text)
                .noneMatch(t -> t.contains(secret));
    }
}
