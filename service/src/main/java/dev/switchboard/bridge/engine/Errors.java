package dev.switchboard.bridge.engine;

import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import java.time.Duration;
import java.time.Instant;

/**
 * Seed: Errors. What a failed call does: credentials and identity refusals, busy (-32004), a rejected
 * answer, a session that is gone, not sent, and unknown outcomes with their 15-minute window.
 */
final class Errors {

    private Errors() {}

    static void failed(Step s, Input.CallFailed f) {
        CallFailure failure = f.failure();
        boolean cancelling = s.turn().phase() == Phase.CANCELLING;
        // HTTP 401 or 403 at any call fails the turn without a retry, and is counted
        if (failure instanceof CallFailure.HttpStatus h && (h.status() == 401 || h.status() == 403)) {
            s.emit(new Effect.CountCredentialRejection());
            if (cancelling) {
                Cancels.cancelFailedForGood(s);
            } else {
                s.notDelivered(Notices.CREDENTIALS_REJECTED);
            }
            return;
        }
        int rpc = failure instanceof CallFailure.RpcError r ? r.code() : 0;
        if (rpc == Engine.MINUS_31403) {
            // the identity is refused for this session: the turn fails
            if (cancelling) {
                Cancels.cancelFailedForGood(s);
            } else {
                s.notDelivered(Notices.IDENTITY_REFUSED);
            }
            return;
        }
        if (cancelling) {
            Cancels.cancelCallFailed(s, f.call(), rpc);
            return;
        }
        switch (f.call()) {
            case CARD -> retryWithin(s, Turn.Next.FETCH_CARD, failure, Notices.unreachable());
            case SEND -> sendFailed(s, f, rpc);
            case GET_TASK -> {
                if (rpc == JsonRpcError.TASK_NOT_FOUND) {
                    sessionGone(s);
                } else {
                    Following.poll(s, failure);
                }
            }
            case SUBSCRIBE -> {
                if (rpc == JsonRpcError.TASK_NOT_FOUND) {
                    sessionGone(s);
                } else if (f.afterEvents()) {
                    Following.lost(s);
                } else {
                    // Methods, SubscribeToTask: without a subscription, GetTask with a backoff of up to a minute
                    if (rpc == JsonRpcError.METHOD_NOT_FOUND) {
                        s.following(x -> x.withSubscribeUnsupported(true));
                    }
                    Following.poll(s, failure);
                }
            }
            case LIST_TASKS -> retryWithin(s, Turn.Next.LOOKUP, failure, Notices.unreachable());
            case CANCEL -> { } // only while cancelling, above
        }
    }

    static void sendFailed(Step s, Input.CallFailed f, int rpc) {
        CallFailure failure = f.failure();
        boolean answering = s.turn().question().answerMessageId() != null;
        if (f.afterEvents()) {
            // the stream dropped after events: GetTask, then follow or settle
            Following.lost(s);
            return;
        }
        if (rpc == JsonRpcError.UNSUPPORTED_OPERATION) {
            busy(s, failure);
            return;
        }
        if (answering && rpc == JsonRpcError.TASK_NOT_FOUND) {
            sessionGone(s); // the paused task is gone with its session
            return;
        }
        if (answering && rpc == JsonRpcError.INTERNAL_ERROR) {
            s.question(q -> q.withAnswerPending(false));
            Cancels.cancel(s, Notices.ANSWER_REJECTED, Outcome.CANCELED); // the answer is rejected
            return;
        }
        int status = failure instanceof CallFailure.HttpStatus h ? h.status()
                : failure instanceof CallFailure.RpcError r ? r.status() : 0;
        if (status >= 300 && status < 500 && status != 408 && status != 429) {
            // another 4xx before any event, with or without a JSON-RPC error the seed gives no meaning (those
            // above win): not sent; retried, then failed after 15 minutes.
            // Discovery: a 3xx is a failed call (no redirect is followed); nothing reached the agent either.
            retryWithin(s, Turn.Next.SEND, failure, Notices.refused("the agent did not accept it"));
            return;
        }
        if (failure instanceof CallFailure.Transport t && t.kind() == CallFailure.TransportKind.CONNECT) {
            // nothing reached the agent: resend without a lookup (the lead's call)
            retryWithin(s, Turn.Next.SEND, failure, Notices.unreachable());
            return;
        }
        // 5xx (and 408, 429), a dropped connection or no headers in 30 s before any event: the outcome is unknown
        unknownOutcome(s, failure);
    }

    /**
     * -32004 to a send: busy; the same message is sent again after a backoff for as long as it takes.
     * Busy is a known outcome (the agent answered and did not take it), so it ends any 15-minute window
     * an earlier unknown outcome or refusal had started: a later one starts its own.
     */
    static void busy(Step s, CallFailure failure) {
        if (s.turn().retries().busySince() == null) {
            s.retries(r -> r.withBusySince(s.now));
        }
        s.retries(r -> r.withTroubleSince(null));
        s.view(TurnView.RETRYING);
        s.retries(r -> r.withRetryAttempt(r.retryAttempt() + 1));
        Duration delay = s.d.delay(s.turn().retries().retryAttempt(), s.d.retryBackoffMax(), failure.retryAfter());
        Timers.waitThen(s, Turn.Next.SEND, delay);
        Instant noticeAt = busyNoticeAt(s);
        if (noticeAt != null && noticeAt.isAfter(s.now) && noticeAt.isBefore(s.turn().waitUntil())) {
            // wake up in time to tell the thread; the resend keeps its own time (a Retry-After, say)
            s.emit(new Effect.ScheduleTimer(s.session().gen(), noticeAt));
        }
        noticeBusyIfDue(s);
    }

    /** When the thread is to be told that the agent is busy; null when it was told, or nothing is busy. */
    static Instant busyNoticeAt(Step s) {
        Turn.Retries r = s.turn().retries();
        return r.busySince() == null || r.busyNoticed() ? null : r.busySince().plus(s.d.busyNoticeAfter());
    }

    /** -32004: the thread is told once, after 2 minutes of refusals. */
    static void noticeBusyIfDue(Step s) {
        Instant at = busyNoticeAt(s);
        if (at != null && !s.now.isBefore(at)) {
            s.retries(r -> r.withBusyNoticed(true));
            s.notice(Notices.BUSY);
        }
    }

    /**
     * The outcome of a send is unknown: it is looked up, then sent again, until 15 minutes have
     * passed; then the turn fails with "the agent could not be reached".
     */
    static void unknownOutcome(Step s, CallFailure failure) {
        if (s.turn().retries().troubleSince() == null) {
            s.retries(r -> r.withTroubleSince(s.now));
        }
        if (giveUp(s, Notices.unreachable())) {
            return;
        }
        s.retries(r -> r.withRetryAttempt(r.retryAttempt() + 1));
        s.view(TurnView.RETRYING);
        Duration delay = s.d.delay(s.turn().retries().retryAttempt(), s.d.retryBackoffMax(),
                failure == null ? null : failure.retryAfter());
        Timers.waitUntil(s, Turn.Next.LOOKUP, s.now.plus(delay));
    }

    /** Retries {@code next} with backoff inside the 15-minute window, then fails with {@code notice}. */
    static void retryWithin(Step s, Turn.Next next, CallFailure failure, String notice) {
        if (s.turn().retries().troubleSince() == null) {
            s.retries(r -> r.withTroubleSince(s.now));
        }
        if (giveUp(s, notice)) {
            return;
        }
        s.retries(r -> r.withRetryAttempt(r.retryAttempt() + 1));
        s.view(TurnView.RETRYING);
        // a Retry-After is honoured on reconnects, up to a day
        Duration delay = s.d.delay(s.turn().retries().retryAttempt(), s.d.retryBackoffMax(), failure.retryAfter());
        Timers.waitUntil(s, next, s.now.plus(delay));
    }

    static boolean giveUp(Step s, String notice) {
        if (!s.now.isBefore(s.turn().retries().troubleSince().plus(s.d.giveUpAfter()))) {
            s.notDelivered(notice);
            return true;
        }
        return false;
    }

    /** -32001 while a task is followed: the session is gone; the next turn starts a new context. */
    static void sessionGone(Step s) {
        s.session(x -> x.withContextId(null));
        Turn.Question q = s.turn().question();
        if (q.answerPending() && !q.answerSent()) {
            Questions.replyIsNotAnAnswer(s); // the typed reply was never sent: it starts the new context
        }
        s.notice(Notices.SESSION_GONE);
        s.done(Outcome.NOT_DELIVERED, TurnView.FAILED);
    }
}
