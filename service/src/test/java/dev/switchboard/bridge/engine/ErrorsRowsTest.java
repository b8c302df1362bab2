package dev.switchboard.bridge.engine;

import static dev.switchboard.bridge.engine.Wire.dropped;
import static dev.switchboard.bridge.engine.Wire.http;
import static dev.switchboard.bridge.engine.Wire.rpc;
import static dev.switchboard.bridge.engine.Wire.task;
import static dev.switchboard.bridge.engine.Wire.update;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.Role;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Seed 000, "Errors": one test per row, and the paragraph under it (B11, B12). */
class ErrorsRowsTest {

    static final int MINUS_31403 = -31403;

    @Test
    @DisplayName("Errors: HTTP 401 or 403, at any call — the credentials are rejected: the turn fails without a retry, "
            + "and agentkourier_credential_rejections_total counts it")
    void errors_401Or403AtAnyCallFailsTheTurnWithoutRetryAndIsCounted() {
        List<Consumer<EngineHarness>> reachCall = List.of(
                h -> h.chat("m1", "hi"), // the card fetch
                h -> h.firstTurn("m1", "hi"), // the send
                h -> {
                    h.firstTurn("m1", "hi");
                    h.event(task("t1", "c1", TaskState.WORKING));
                    h.drop(dropped());
                    h.nextCall(Duration.ofSeconds(1)); // GetTask
                },
                h -> {
                    h.firstTurn("m1", "hi");
                    h.stream(task("t1", "c1", TaskState.WORKING));
                    h.nextCall(Duration.ofSeconds(1));
                    h.read(task("t1", "c1", TaskState.WORKING)); // SubscribeToTask
                },
                h -> {
                    h.completedTurn("m0", "first", "t0", "c1", "ok");
                    h.chat("m1", "hi");
                    h.fail(http(503));
                    h.nextCall(Duration.ofMinutes(1)); // ListTasks
                });
        for (int status : new int[] {401, 403}) {
            for (Consumer<EngineHarness> reach : reachCall) {
                EngineHarness h = EngineHarness.a2a();
                reach.accept(h);
                Effect call = h.call();
                h.fail(http(status));
                assertThat(h.expect(Effect.CountCredentialRejection.class)).as("%s at %s", status, call).isNotNull();
                assertThat(h.finished("m1")).isTrue();
                assertThat(h.lastView("m1")).isEqualTo(TurnView.NOT_DELIVERED);
                assertThat(h.notices()).last().isEqualTo(Notices.CREDENTIALS_REJECTED);
                assertThat(h.nextCall(Duration.ofHours(1))).as("no retry").isNull();
            }
        }
        // at a cancel: the cancel is reported as failed at once, and counted
        EngineHarness cancel = EngineHarness.a2a();
        cancel.askedQuestion("m1", "q1");
        cancel.advance(Duration.ofHours(1));
        cancel.fail(http(401));
        assertThat(cancel.expect(Effect.CountCredentialRejection.class)).isNotNull();
        assertThat(cancel.notices()).containsExactly(Notices.QUESTION_TIMED_OUT, Notices.CANCEL_FAILED);
        assertThat(cancel.all(Effect.CancelTask.class)).hasSize(1);
    }

    @Test
    @DisplayName("Errors: JSON-RPC -31403 — the identity is refused for this session: the turn fails")
    void errors_minus31403RefusesTheIdentityAndTheTurnFails() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "hi");
        h.fail(rpc(MINUS_31403));
        assertThat(h.finished("m1")).isTrue();
        assertThat(h.notices()).containsExactly(Notices.IDENTITY_REFUSED);
        assertThat(h.all(Effect.CountCredentialRejection.class)).isEmpty();
        assertThat(h.nextCall(Duration.ofHours(1))).isNull();

        // the next turn is tried again: the refusal is for the turn that met it
        h.chat("m2", "again");
        assertThat(h.expect(Effect.SendStream.class).message().messageId()).isEqualTo("m2");
    }

    @Test
    @DisplayName("Errors: JSON-RPC -32004 to a send — busy: the same message is sent again after a backoff, for as long "
            + "as it takes, and the thread is told after 2 minutes")
    void errors_busySendIsResentForAsLongAsItTakesAndTheThreadToldAfterTwoMinutes() {
        EngineHarness h = EngineHarness.a2a();
        h.agent(call -> call instanceof Effect.SendStream
                ? EngineHarness.replyFailure(call, rpc(JsonRpcError.UNSUPPORTED_OPERATION)) : null);
        h.firstTurn("m1", "hi");
        h.advance(Duration.ofMinutes(1).plusSeconds(59));
        assertThat(h.notices()).isEmpty();
        h.advance(Duration.ofSeconds(1));
        assertThat(h.notices()).containsExactly(Notices.BUSY);
        assertThat(h.timesOf(Effect.PostNotice.class)).containsExactly(EngineHarness.T0.plus(Duration.ofMinutes(2)));

        h.advance(Duration.ofHours(3));
        assertThat(h.finished("m1")).as("for as long as it takes").isFalse();
        assertThat(h.notices()).as("told once").containsExactly(Notices.BUSY);
        assertThat(h.sends()).extracting(s -> s.message().messageId()).containsOnly("m1");
        assertThat(h.gapsOf(Effect.SendStream.class)).allMatch(g -> g.compareTo(Duration.ofSeconds(30)) <= 0);
        assertThat(h.all(Effect.ListTasks.class)).as("busy is a known outcome: nothing to look up").isEmpty();

        h.agent(null);
        h.nextCall(Duration.ofMinutes(1));
        h.stream(task("t1", "c1", TaskState.COMPLETED, "finally"));
        assertThat(h.lastView("m1")).isEqualTo(TurnView.COMPLETED);
    }

    @Test
    @DisplayName("Errors: JSON-RPC -32603 to an answer — the answer is rejected: the paused task is cancelled and the thread told")
    void errors_minus32603ToAnAnswerCancelsThePausedTask() {
        EngineHarness h = EngineHarness.a2a();
        h.askedQuestion("m1", "q1");
        h.answered("a1", "Tuesday");
        h.fail(rpc(JsonRpcError.INTERNAL_ERROR));
        assertThat(h.expect(Effect.CancelTask.class).taskId()).isEqualTo("t1");
        assertThat(h.notices()).containsExactly(Notices.ANSWER_REJECTED);
        h.cancelAccepted(task("t1", "c1", TaskState.CANCELED));
        assertThat(h.lastView("m1")).isEqualTo(TurnView.CANCELED);

        // to a turn that is not an answer, -32603 is no rejection: its outcome is unknown
        EngineHarness turn = EngineHarness.a2a();
        turn.firstTurn("m1", "hi");
        turn.fail(rpc(JsonRpcError.INTERNAL_ERROR));
        assertThat(turn.all(Effect.CancelTask.class)).isEmpty();
        assertThat(turn.nextCall(Duration.ofMinutes(1))).isInstanceOf(Effect.SendStream.class);
    }

    @Test
    @DisplayName("Errors: JSON-RPC -32001 (task not found) while a task is followed — the session is gone: the thread is "
            + "told and the next turn starts a new context")
    void errors_taskNotFoundWhileFollowingEndsTheSessionAndTheNextTurnStartsANewContext() {
        EngineHarness h = EngineHarness.a2a();
        h.completedTurn("m0", "first", "t0", "c1", "ok");
        h.chat("m1", "second");
        h.event(task("t1", "c1", TaskState.WORKING));
        h.drop(dropped());
        h.nextCall(Duration.ofSeconds(1));
        h.fail(rpc(JsonRpcError.TASK_NOT_FOUND));
        assertThat(h.notices()).containsExactly(Notices.SESSION_GONE);
        assertThat(h.finished("m1")).isTrue();
        h.chat("m2", "third");
        assertThat(h.call(Effect.SendStream.class).message().contextId()).as("a new context").isNull();
        h.stream(task("t2", "c2", TaskState.COMPLETED, "fresh"));
        assertThat(h.notices()).as("a new context after a gone one is no surprise").containsExactly(Notices.SESSION_GONE);

        // on a subscription, and on an answer to the paused task, the same
        EngineHarness sub = EngineHarness.a2a();
        sub.firstTurn("m1", "hi");
        sub.stream(task("t1", "c1", TaskState.WORKING));
        sub.nextCall(Duration.ofSeconds(1));
        sub.read(task("t1", "c1", TaskState.WORKING));
        sub.fail(rpc(JsonRpcError.TASK_NOT_FOUND));
        assertThat(sub.notices()).containsExactly(Notices.SESSION_GONE);
        assertThat(sub.session.contextId()).isNull();

        EngineHarness answer = EngineHarness.a2a();
        answer.askedQuestion("m1", "q1");
        answer.chat("a1", "Tuesday");
        answer.fail(rpc(JsonRpcError.TASK_NOT_FOUND)); // GetTask before the answer
        assertThat(answer.notices()).containsExactly(Notices.SESSION_GONE);
        Effect.SendStream reply = answer.call(Effect.SendStream.class);
        assertThat(reply.message().messageId()).as("the typed reply is not lost: it starts the new context").isEqualTo("a1");
        assertThat(reply.message().contextId()).isNull();
        assertThat(reply.message().taskId()).isNull();
    }

    @Test
    @DisplayName("Errors: another HTTP 4xx, other than 408 and 429, before any event — not sent: retried, then failed "
            + "after 15 minutes")
    void errors_other4xxBeforeAnyEventIsRetriedThenFailsAfterFifteenMinutes() {
        for (int status : new int[] {400, 404, 405, 413, 422}) {
            EngineHarness h = EngineHarness.a2a();
            h.completedTurn("m0", "first", "t0", "c1", "ok");
            h.agent(call -> call instanceof Effect.SendStream ? EngineHarness.replyFailure(call, http(status)) : null);
            h.chat("m1", "second");
            h.advance(Duration.ofMinutes(14).plusSeconds(59));
            assertThat(h.finished("m1")).isFalse();
            assertThat(h.all(Effect.ListTasks.class)).as("not sent: nothing to look up").isEmpty();
            assertThat(h.sends().size()).isGreaterThan(20);
            h.advance(Duration.ofSeconds(31));
            assertThat(h.finished("m1")).as("%s", status).isTrue();
            assertThat(h.lastView("m1")).isEqualTo(TurnView.NOT_DELIVERED);
            assertThat(h.notices()).singleElement().asString().startsWith("The message was not delivered");
        }
        // 408 and 429 are not this row: the outcome is unknown, so it is looked up
        for (int status : new int[] {408, 429}) {
            EngineHarness h = EngineHarness.a2a();
            h.completedTurn("m0", "first", "t0", "c1", "ok");
            h.chat("m1", "second");
            h.fail(http(status));
            assertThat(h.nextCall(Duration.ofMinutes(1))).as("%s", status).isInstanceOf(Effect.ListTasks.class);
        }
    }

    @Test
    @DisplayName("Errors: HTTP 5xx, or a dropped connection, before any event — outcome unknown: looked up with ListTasks "
            + "where it can be, then sent again")
    void errors_5xxOrDropBeforeAnyEventIsLookedUpThenSentAgain() {
        List<CallFailure> failures = List.of(http(500), http(502), http(503), http(504), dropped(),
                Wire.transport(CallFailure.TransportKind.HEADERS_TIMEOUT), new CallFailure.Malformed("not JSON"));
        for (CallFailure failure : failures) {
            EngineHarness h = EngineHarness.a2a();
            h.completedTurn("m0", "first", "t0", "c1", "ok");
            h.chat("m1", "second");
            h.fail(failure);
            assertThat(h.lastView("m1")).isEqualTo(TurnView.RETRYING);
            assertThat(h.nextCall(Duration.ofMinutes(1))).as("%s", failure).isInstanceOf(Effect.ListTasks.class);
            h.listed(Wire.page(""));
            assertThat(h.expect(Effect.SendStream.class).message().messageId()).isEqualTo("m1");
        }
        // where it cannot be (a first turn, a 0.3 agent): sent again
        EngineHarness first = EngineHarness.a2a();
        first.firstTurn("m1", "hi");
        first.fail(http(500));
        assertThat(first.nextCall(Duration.ofMinutes(1))).isInstanceOf(Effect.SendStream.class);

        // connection refused: nothing was sent, so it is sent again without a lookup (the lead's call)
        EngineHarness refused = EngineHarness.a2a();
        refused.completedTurn("m0", "first", "t0", "c1", "ok");
        refused.chat("m1", "second");
        refused.fail(Wire.transport(CallFailure.TransportKind.CONNECT));
        assertThat(refused.nextCall(Duration.ofMinutes(1))).isInstanceOf(Effect.SendStream.class);

        // after events, a drop is a lost stream: the task is read, not looked up
        EngineHarness after = EngineHarness.a2a();
        after.firstTurn("m1", "hi");
        after.event(task("t1", "c1", TaskState.WORKING));
        after.drop(http(502));
        assertThat(after.nextCall(Duration.ofMinutes(1))).isInstanceOf(Effect.GetTask.class);
    }

    @Test
    @DisplayName("Errors: a Retry-After header is honoured on reconnects, up to a day")
    void errors_retryAfterIsHonouredOnReconnectsUpToADay() {
        EngineHarness h = EngineHarness.a2a();
        h.completedTurn("m0", "first", "t0", "c1", "ok");
        h.chat("m1", "second");
        h.fail(http(503, Duration.ofMinutes(10)));
        h.advance(Duration.ofMinutes(9).plusSeconds(59));
        assertThat(h.all(Effect.ListTasks.class)).isEmpty();
        h.advance(Duration.ofSeconds(1));
        assertThat(h.all(Effect.ListTasks.class)).hasSize(1);

        // busy with a Retry-After of two days: resent after one day; the thread is still told after 2 minutes
        EngineHarness busy = EngineHarness.a2a();
        busy.firstTurn("m1", "hi");
        busy.fail(rpc(JsonRpcError.UNSUPPORTED_OPERATION, Duration.ofDays(2)));
        busy.advance(Duration.ofMinutes(2));
        assertThat(busy.notices()).containsExactly(Notices.BUSY);
        assertThat(busy.sends()).as("the notice does not resend early").hasSize(1);
        busy.advance(Duration.ofDays(1).minusMinutes(2).minusSeconds(1));
        assertThat(busy.sends()).hasSize(1);
        busy.advance(Duration.ofSeconds(1));
        assertThat(busy.sends()).hasSize(2);

        // a card fetch and a GetTask reconnect too
        EngineHarness card = EngineHarness.a2a();
        card.chat("m1", "hi");
        card.fail(http(503, Duration.ofMinutes(3)));
        assertThat(card.nextCall(Duration.ofMinutes(5))).isInstanceOf(Effect.FetchCard.class);
        assertThat(card.timesOf(Effect.FetchCard.class)).last().isEqualTo(EngineHarness.T0.plus(Duration.ofMinutes(3)));

        EngineHarness read = EngineHarness.a2a();
        read.firstTurn("m1", "hi");
        read.stream(task("t1", "c1", TaskState.WORKING));
        read.nextCall(Duration.ofSeconds(1));
        read.fail(http(503, Duration.ofMinutes(7)));
        read.nextCall(Duration.ofHours(1));
        assertThat(read.gapsOf(Effect.GetTask.class)).containsExactly(Duration.ofMinutes(7));
    }

    @Test
    @DisplayName("Errors: an error's message is never shown in the thread")
    void errors_anErrorsMessageIsNeverShown() {
        List<EngineHarness> runs = new ArrayList<>();
        for (int code : new int[] {JsonRpcError.INTERNAL_ERROR, JsonRpcError.INVALID_PARAMS, JsonRpcError.TASK_NOT_FOUND,
                JsonRpcError.UNSUPPORTED_OPERATION, MINUS_31403, JsonRpcError.METHOD_NOT_FOUND}) {
            EngineHarness h = EngineHarness.a2a();
            h.agent(call -> EngineHarness.replyFailure(call, rpc(code)));
            h.chat("m1", "hi");
            h.advance(Duration.ofMinutes(20));
            runs.add(h);

            EngineHarness answer = EngineHarness.a2a();
            answer.askedQuestion("m1", "q1");
            answer.agent(call -> EngineHarness.replyFailure(call, rpc(code)));
            answer.chat("a1", "Tuesday");
            answer.advance(Duration.ofMinutes(20));
            runs.add(answer);
        }
        for (EngineHarness h : runs) {
            assertThat(h.log).allSatisfy(e -> assertThat(e.toString()).doesNotContain("secret-token-xyz")
                    .doesNotContain("stack trace"));
        }
    }

    @Test
    @DisplayName("Errors: for a failed task, the status message's text (up to 32 parts, 4096 characters) and the metadata "
            + "keys code, error_code and kagent_error_code are read only to pick a category")
    void errors_failedTaskCategoryIsPickedFromStatusTextAndThreeMetadataKeysOnly() {
        assertThat(categoryOf(List.of("context_length_exceeded: too many tokens"), null)).isEqualTo("context limit");
        assertThat(categoryOf(List.of("Too Many Requests"), null)).isEqualTo("rate limit");
        assertThat(categoryOf(List.of("invalid API key supplied"), null)).isEqualTo("authentication");
        assertThat(categoryOf(List.of("tool call timed out"), null)).isEqualTo("timeout");
        assertThat(categoryOf(List.of("Permission denied on repo"), null)).isEqualTo("permission");
        assertThat(categoryOf(List.of("it broke"), null)).isNull();
        assertThat(categoryOf(List.of("processed 4290 rows"), null)).as("a number inside a number").isNull();

        for (String key : new String[] {"code", "error_code", "kagent_error_code"}) {
            assertThat(categoryOf(List.of("it broke"), meta(key, "RATE_LIMIT_EXCEEDED"))).as(key).isEqualTo("rate limit");
        }
        assertThat(categoryOf(List.of("it broke"), meta("reason", "timeout"))).as("other keys are not read").isNull();
        assertThat(categoryOf(List.of("Permission denied"), meta("code", "DEADLINE_EXCEEDED")))
                .as("the agent's code first").isEqualTo("timeout");

        List<String> thirtyThree = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            thirtyThree.add("line " + i);
        }
        thirtyThree.add("rate limit");
        assertThat(categoryOf(thirtyThree, null)).as("the 33rd part is not read").isNull();
        assertThat(categoryOf(thirtyThree.subList(1, 33), null)).as("the 32nd part is").isEqualTo("rate limit");

        String filler = "x".repeat(4096 - "timeout".length());
        assertThat(categoryOf(List.of(filler + "timeout"), null)).as("within 4096").isEqualTo("timeout");
        assertThat(categoryOf(List.of(filler + "Xtimeout"), null)).as("beyond 4096").isNull();

        // and in the thread: the notice names the category, never the text
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "hi");
        h.stream(new Task("t1", "c1", Wire.status(TaskState.FAILED, new Message("e", Role.AGENT,
                List.of(Part.text("secret-token-xyz: quota exhausted")), null, null, meta("kagent_error_code", "x"), null, null)),
                null, null, null));
        assertThat(h.notices()).containsExactly("The agent's task failed. Reason: rate limit.");
    }

    private static String categoryOf(List<String> texts, ObjectNode metadata) {
        List<Part> parts = texts.stream().map(t -> (Part) Part.text(t)).toList();
        FailureCategory c = FailureCategory.of(new Message("e", Role.AGENT, parts, null, null, metadata, null, null));
        return c == null ? null : c.label();
    }

    private static ObjectNode meta(String key, String value) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put(key, value);
        return n;
    }

    @Test
    @DisplayName("Errors: a failed task whose update said so is settled by GetTask, with the category read from the read task")
    void errors_failedUpdateIsSettledByGetTaskWithItsCategory() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "hi");
        Task failed = new Task("t1", "c1", Wire.status(TaskState.FAILED, Wire.agentSays("e", "context window exceeded")),
                null, null, null);
        h.stream(task("t1", "c1", TaskState.WORKING), update("t1", "c1", failed.status()));
        h.nextCall(Duration.ofSeconds(1));
        h.read(failed);
        assertThat(h.notices()).containsExactly("The agent's task failed. Reason: context limit.");
    }

    @Test
    @DisplayName("Errors: JSON-RPC -32004 to a send — busy is a known outcome, so it ends an unknown outcome's "
            + "15-minute window: the message is sent again for as long as it takes")
    void errors_busyEndsTheUnknownOutcomeWindow() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "hi");
        h.fail(http(503)); // outcome unknown: its 15-minute window starts
        h.agent(call -> call instanceof Effect.SendStream
                ? EngineHarness.replyFailure(call, rpc(JsonRpcError.UNSUPPORTED_OPERATION)) : null);
        h.advance(Duration.ofMinutes(20)); // busy, for longer than that window
        assertThat(h.finished("m1")).isFalse();

        h.agent(null);
        assertThat(h.nextCall(Duration.ofMinutes(1))).isInstanceOf(Effect.SendStream.class);
        h.fail(dropped()); // the agent took it this time, and the connection dropped: a new unknown outcome
        assertThat(h.finished("m1")).as("a new window, not the one busy ended").isFalse();
        assertThat(h.notices()).containsExactly(Notices.BUSY);
        assertThat(h.nextCall(Duration.ofMinutes(1))).as("sent again").isInstanceOf(Effect.SendStream.class);
    }

    @Test
    @DisplayName("Errors: JSON-RPC -32004 to a send — busy is resent after a backoff that honours Retry-After: the wait "
            + "is the longer of the backoff and the Retry-After, up to a day; busy does not count toward the 15-minute "
            + "window of a turn not sent")
    void errors_busyWaitsTheLongerOfBackoffAndRetryAfterAndResetsTheWindow() {
        // a Retry-After shorter than the backoff (0 s, 1 s) does not make the resends come sooner
        for (Duration retryAfter : List.of(Duration.ofSeconds(1), Duration.ZERO)) { // before the fix, 0 s looped at once
            EngineHarness h = EngineHarness.a2a();
            h.agent(call -> call instanceof Effect.SendStream
                    ? EngineHarness.replyFailure(call, rpc(JsonRpcError.UNSUPPORTED_OPERATION, retryAfter)) : null);
            h.firstTurn("m1", "hi");
            h.advance(Duration.ofMinutes(3));
            assertThat(h.gapsOf(Effect.SendStream.class)).as("Retry-After %s", retryAfter).startsWith(
                    Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4), Duration.ofSeconds(8),
                    Duration.ofSeconds(16), Duration.ofSeconds(30), Duration.ofSeconds(30));
        }
        // a longer one is the wait; beyond a day, a day
        EngineHarness longer = EngineHarness.a2a();
        longer.agent(call -> call instanceof Effect.SendStream
                ? EngineHarness.replyFailure(call, rpc(JsonRpcError.UNSUPPORTED_OPERATION, Duration.ofMinutes(5))) : null);
        longer.firstTurn("m1", "hi");
        longer.advance(Duration.ofMinutes(16));
        assertThat(longer.gapsOf(Effect.SendStream.class)).containsExactly(Duration.ofMinutes(5), Duration.ofMinutes(5),
                Duration.ofMinutes(5));
        assertThat(longer.finished("m1")).as("busy for longer than 15 minutes is not given up").isFalse();

        // a 4xx starts the not-sent window; busy for 20 minutes ends it, so the next 4xx starts a new one
        EngineHarness window = EngineHarness.a2a();
        window.firstTurn("m1", "hi");
        window.fail(http(400));
        window.agent(call -> call instanceof Effect.SendStream
                ? EngineHarness.replyFailure(call, rpc(JsonRpcError.UNSUPPORTED_OPERATION, Duration.ofSeconds(90))) : null);
        window.advance(Duration.ofMinutes(20));
        window.agent(call -> call instanceof Effect.SendStream ? EngineHarness.replyFailure(call, http(400)) : null);
        window.advance(Duration.ofMinutes(2));
        assertThat(window.finished("m1")).as("a new window, not the one busy ended").isFalse();
        window.advance(Duration.ofMinutes(16));
        assertThat(window.finished("m1")).isTrue();
        assertThat(window.notices()).containsExactly(Notices.BUSY, window.notices().get(1));
        assertThat(window.notices().get(1)).startsWith("The message was not delivered");
    }

    /** A JSON-RPC error in the body of an HTTP reply with this status. */
    private static CallFailure rpcIn(int status, int code) {
        return new CallFailure.RpcError(code, "agent detail (secret-token-xyz)", null, status);
    }

    @Test
    @DisplayName("Errors: another HTTP 4xx, other than 408 and 429, before any event — not sent, also when its body is a "
            + "JSON-RPC error the seed gives no meaning; a code the seed does give a meaning wins")
    void errors_4xxWithAJsonRpcErrorBodyIsNotSentUnlessItsCodeHasAMeaning() {
        // A2A servers put JSON-RPC errors in 400s and 404s: such a reply is still "another HTTP 4xx": not sent,
        // retried without a lookup, then failed after 15 minutes (not the unknown-outcome path)
        for (CallFailure failure : List.of(rpcIn(400, JsonRpcError.INVALID_PARAMS), rpcIn(400, -32600),
                rpcIn(404, JsonRpcError.METHOD_NOT_FOUND), rpcIn(422, JsonRpcError.INTERNAL_ERROR),
                rpcIn(404, JsonRpcError.TASK_NOT_FOUND))) {
            EngineHarness h = EngineHarness.a2a();
            h.completedTurn("m0", "first", "t0", "c1", "ok");
            h.agent(call -> call instanceof Effect.SendStream ? EngineHarness.replyFailure(call, failure) : null);
            h.chat("m1", "second");
            h.advance(Duration.ofMinutes(14).plusSeconds(59));
            assertThat(h.finished("m1")).as("%s", failure).isFalse();
            assertThat(h.all(Effect.ListTasks.class)).as("not sent: nothing to look up (%s)", failure).isEmpty();
            h.advance(Duration.ofSeconds(31));
            assertThat(h.finished("m1")).as("%s", failure).isTrue();
            assertThat(h.lastView("m1")).isEqualTo(TurnView.NOT_DELIVERED);
            assertThat(h.notices()).singleElement().asString().startsWith("The message was not delivered");
        }

        // the seed's own codes win over the status they came with: -32004 in a 400 is busy (never given up) ...
        EngineHarness busy = EngineHarness.a2a();
        busy.agent(call -> call instanceof Effect.SendStream
                ? EngineHarness.replyFailure(call, rpcIn(400, JsonRpcError.UNSUPPORTED_OPERATION)) : null);
        busy.firstTurn("m1", "hi");
        busy.advance(Duration.ofMinutes(30));
        assertThat(busy.finished("m1")).isFalse();
        assertThat(busy.notices()).containsExactly(Notices.BUSY);

        // ... -31403 in a 400 refuses the identity (no retry) ...
        EngineHarness refused = EngineHarness.a2a();
        refused.firstTurn("m1", "hi");
        refused.fail(rpcIn(400, MINUS_31403));
        assertThat(refused.finished("m1")).isTrue();
        assertThat(refused.sends()).hasSize(1);
        assertThat(refused.all(Effect.CountCredentialRejection.class)).isEmpty();

        // ... and -32603 to an answer in a 400 rejects the answer
        EngineHarness answer = EngineHarness.a2a();
        answer.askedQuestion("m1", "q1");
        answer.answered("a1", "Tuesday");
        answer.fail(rpcIn(400, JsonRpcError.INTERNAL_ERROR));
        assertThat(answer.expect(Effect.CancelTask.class).taskId()).isEqualTo("t1");

        // 401 and 403 reject the credentials whatever the body says (the client reads them before the body:
        // CallRulesTest.rejectedCredentialsAreAnHttpStatusWhateverTheBody), so they never arrive as an RpcError here.
        // 408, 429 and 5xx with a JSON-RPC error of no meaning stay of unknown outcome: looked up
        for (CallFailure failure : List.of(rpcIn(408, -32600), rpcIn(429, JsonRpcError.INTERNAL_ERROR),
                rpcIn(500, JsonRpcError.INTERNAL_ERROR), rpcIn(503, JsonRpcError.INVALID_PARAMS))) {
            EngineHarness h = EngineHarness.a2a();
            h.completedTurn("m0", "first", "t0", "c1", "ok");
            h.chat("m1", "second");
            h.fail(failure);
            assertThat(h.nextCall(Duration.ofMinutes(1))).as("%s", failure).isInstanceOf(Effect.ListTasks.class);
        }
    }
}
