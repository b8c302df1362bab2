package dev.switchboard.check;

import static dev.switchboard.check.Evidence.duration;
import static dev.switchboard.check.Evidence.failure;
import static dev.switchboard.check.Evidence.id;
import static dev.switchboard.check.Events.isSettled;

import dev.switchboard.bridge.engine.Contract;
import dev.switchboard.check.AgentCalls.Outcome;
import dev.switchboard.check.StreamProbe.Ending;
import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.SendMessageParams;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Runs the checker's turns as the bridge sends them: opens a send, finishes its stream, settles its task; and keeps
 * what the sends showed of errors.busy-only-when-busy.
 */
final class Turns {

    static final int SEND_TRIES = 4;
    private static final String TEXT = "Hello from switchboard check, a contract test: any short answer will do.";

    /** A send and its first event (null when it ended or failed without one). */
    record Opened(String label, String messageId, String contextId, String sent, StreamProbe probe,
            StreamEvent first, int busyRefusals) {}

    private final AgentCalls calls;
    private final CheckLimits limits;
    private final StartedTasks started;
    private final Verdicts verdicts;
    private final List<String> busyWhenIdle = new ArrayList<>();
    /** Sends into an idle context that the agent answered with an event (so not with -32004). */
    private int idleSendsAnswered;

    Turns(AgentCalls calls, CheckLimits limits, StartedTasks started, Verdicts verdicts) {
        this.calls = calls;
        this.limits = limits;
        this.started = started;
        this.verdicts = verdicts;
    }

    static String messageId() {
        return "sb-check-" + UUID.randomUUID();
    }

    /**
     * Sends one turn as the bridge does (one user message, one text part) and waits for its first event. A -32004
     * before any event is busy: the same message is sent again after a short backoff, a few times.
     *
     * @param idleContext the agent has no task running in this context, so a -32004 breaks errors.busy-only-when-busy
     */
    Opened open(String label, String messageId, String contextId, boolean idleContext) {
        String sent = calls.method(A2aMethod.SEND_STREAMING_MESSAGE) + "(messageId " + id(messageId) + ", "
                + (contextId == null ? "no contextId" : "contextId " + id(contextId)) + ")";
        SendMessageParams params = SendMessageParams.of(Message.userText(messageId, TEXT, contextId, null, null));
        int busy = 0;
        while (true) {
            StreamProbe probe = calls.stream(l -> calls.client().sendStreaming(calls.endpoint(), params, l));
            StreamEvent first = probe.awaitFirst(limits.headersTimeout().plus(limits.idleLimit()));
            if (first != null) {
                started.observe(first);
                if (idleContext) {
                    idleSendsAnswered++;
                }
                return new Opened(label, messageId, contextId, sent, probe, first, busy);
            }
            Ending ending = probe.await(limits.headersTimeout(), limits.idleLimit(), limits.turnLimit());
            if (ending instanceof Ending.Failed f && f.failure() instanceof CallFailure.RpcError r
                    && r.code() == JsonRpcError.UNSUPPORTED_OPERATION) {
                busy++;
                if (idleContext) {
                    busyWhenIdle.add(label + ": " + sent + " → -32004" + (busy > 1 ? " (try " + busy + ")" : ""));
                }
                if (busy < SEND_TRIES) {
                    pause(Contract.durations().delay(busy, Duration.ofSeconds(1), null).dividedBy(4), r.retryAfter());
                    continue;
                }
            }
            return new Opened(label, messageId, contextId, sent, probe, null, busy);
        }
    }

    Turn finish(Opened o) {
        Ending ending = o.probe().await(limits.headersTimeout(), limits.idleLimit(), limits.turnLimit());
        Duration lasted = o.probe().lasted();
        if (ending instanceof Ending.Failed f) {
            calls.observeFailure(o.sent(), f.failure());
        }
        List<StreamEvent> events = o.probe().events();
        events.forEach(started::observe);
        return new Turn(o.label(), o.messageId(), o.sent(), events, ending, o.probe().longestGap(), lasted, o.busyRefusals());
    }

    /**
     * Settles a turn as the bridge does: a stream that ended with a full settled Task is settled; any other end is read
     * with GetTask until the task settles (within the turn limit). Concludes replies.ends-with-full-task and, for the
     * first turn, methods.get-task. Returns the task GetTask read, or null.
     */
    Task settle(Turn t, boolean first) {
        judgeEnd(t);
        String sent = calls.method(A2aMethod.GET_TASK) + "(" + id(t.taskId()) + ")";
        long deadline = System.nanoTime() + limits.turnLimit().toNanos();
        Duration wait = Duration.ofMillis(100);
        while (true) {
            Outcome<Task> read = calls.call(sent, calls.client().getTask(calls.endpoint(), t.taskId(), null));
            if (read.failure() != null) {
                if (first) {
                    String not = read.failure() instanceof CallFailure.RpcError r && r.code() == JsonRpcError.METHOD_NOT_FOUND
                            ? " (not implemented)" : "";
                    verdicts.conclude(RowId.METHODS_GET_TASK, Verdict.FAIL, sent + " → " + failure(read.failure()) + not
                            + ": a turn whose stream does not end with a full Task cannot finish, and a task cannot be "
                            + "followed after a dropped stream or a restart");
                }
                return null;
            }
            Task task = read.value();
            started.observe(task);
            if (!t.taskId().equals(task.id())) {
                if (first) {
                    verdicts.conclude(RowId.METHODS_GET_TASK, Verdict.FAIL, sent + " → " + Evidence.event(task) + ", another task");
                }
                return null;
            }
            if (isSettled(task.state()) || System.nanoTime() + wait.toNanos() > deadline) {
                if (first) {
                    verdicts.conclude(RowId.METHODS_GET_TASK, isSettled(task.state()) ? Verdict.PASS : Verdict.FAIL, sent + " → "
                            + Evidence.event(task) + (isSettled(task.state()) ? ""
                            : ", still not settled after " + duration(limits.turnLimit())));
                }
                return task;
            }
            pause(wait, null);
            wait = wait.multipliedBy(2).compareTo(Duration.ofSeconds(1)) > 0 ? Duration.ofSeconds(1) : wait.multipliedBy(2);
        }
    }

    /** replies.ends-with-full-task: how the turn's stream ended. */
    private void judgeEnd(Turn t) {
        StreamEvent last = t.events().get(t.events().size() - 1);
        boolean full = t.ending() instanceof Ending.Ended && Contract.settles(last);
        if (full) {
            verdicts.conclude(RowId.REPLIES_ENDS_WITH_FULL_TASK, Verdict.PASS, t.label() + ": the stream ended with "
                    + Evidence.event(last));
        } else if (t.ending() instanceof Ending.Cut cut && cut.idle() && limits.quick()) {
            verdicts.conclude(RowId.REPLIES_ENDS_WITH_FULL_TASK, Verdict.SKIP, t.label() + ": the checker cut the stream after "
                    + duration(cut.silent()) + " without an event (--quick), so its end was not seen");
        } else {
            String how;
            if (t.ending() instanceof Ending.Failed f) {
                how = "broke after " + t.events().size() + " event(s) (" + failure(f.failure()) + ")";
            } else if (t.ending() instanceof Ending.Cut c) {
                how = "was silent for " + duration(c.silent()) + " and was cut";
            } else {
                String kind = last instanceof TaskStatusUpdateEvent ? "a status update"
                        : last instanceof Task ? "an unsettled Task" : last instanceof Message ? "a bare Message" : "an artifact update";
                how = "ended with " + kind + " (" + Evidence.event(last) + "), not a full Task in a terminal, "
                        + "input-required or auth-required state";
            }
            verdicts.conclude(RowId.REPLIES_ENDS_WITH_FULL_TASK, Verdict.WARN, t.label() + ": the stream " + how
                    + ": Switchboard treats it as dropped and settles such turns with GetTask after a second");
        }
    }

    /** errors.busy-only-when-busy, from every send into an idle context. */
    void judgeBusy() {
        if (!busyWhenIdle.isEmpty()) {
            verdicts.conclude(RowId.ERRORS_BUSY_ONLY_WHEN_BUSY, Verdict.FAIL, String.join("; ", busyWhenIdle) + ", with no task "
                    + "of the agent's running: Switchboard sends the same message again after a backoff, for as long as it "
                    + "takes, and tells the thread after 2 minutes; do not use -32004 for anything but busy");
        } else if (idleSendsAnswered > 0) {
            verdicts.conclude(RowId.ERRORS_BUSY_ONLY_WHEN_BUSY, Verdict.PASS, "all " + idleSendsAnswered + " send(s) into an "
                    + "idle context were answered, none with -32004");
        }
    }

    /** Waits before a retry; an agent's Retry-After is honoured up to 2 seconds (a check must stay short). */
    private static void pause(Duration backoff, Duration retryAfter) {
        Duration d = backoff;
        if (retryAfter != null && retryAfter.compareTo(d) > 0) {
            d = retryAfter.compareTo(Duration.ofSeconds(2)) > 0 ? Duration.ofSeconds(2) : retryAfter;
        }
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CouldNotRun("interrupted");
        }
    }
}
