package dev.switchboard.check;

import static dev.switchboard.check.Evidence.failure;
import static dev.switchboard.check.Evidence.id;
import static dev.switchboard.check.Events.isSettled;
import static dev.switchboard.check.Events.stateOf;
import static dev.switchboard.check.Events.taskId;

import dev.switchboard.check.AgentCalls.Outcome;
import dev.switchboard.check.StreamProbe.Ending;
import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskState;
import java.time.Duration;

/** methods.subscribe and methods.cancel, on a third turn's task while it runs. */
final class LiveTaskProbes {

    private final AgentCalls calls;
    private final CheckLimits limits;
    private final Verdicts verdicts;
    private final StartedTasks started;
    private final Turns turns;

    LiveTaskProbes(AgentCalls calls, CheckLimits limits, Verdicts verdicts, StartedTasks started, Turns turns) {
        this.calls = calls;
        this.limits = limits;
        this.verdicts = verdicts;
        this.started = started;
        this.turns = turns;
    }

    /** A third turn: while its task runs, SubscribeToTask and CancelTask of it. */
    void run(String fallbackTaskId) {
        Turns.Opened opened = turns.open("third turn", Turns.messageId(), null, true);
        String taskId = opened.first() == null ? null : taskId(opened.first());
        boolean running = taskId != null && opened.first() != null && !isSettled(stateOf(opened.first()));
        String target = taskId != null ? taskId : fallbackTaskId;
        subscribe(target, running);
        cancel(target, running);
        turns.finish(opened);
    }

    private void subscribe(String taskId, boolean running) {
        String sent = calls.method(A2aMethod.SUBSCRIBE_TO_TASK) + "(" + id(taskId) + ")";
        StreamProbe probe = calls.stream(l -> calls.client().subscribe(calls.endpoint(), taskId, l));
        StreamEvent first = probe.awaitFirst(limits.headersTimeout().plus(limits.idleLimit()));
        Ending ending = first != null ? null : probe.await(limits.headersTimeout(), Duration.ofSeconds(1), Duration.ofSeconds(1));
        probe.cut();
        if (first != null) {
            started.observe(first);
            String other = taskId(first);
            if (other != null && !other.equals(taskId)) {
                verdicts.conclude(RowId.METHODS_SUBSCRIBE, Verdict.FAIL, sent + " → " + Evidence.event(first) + ", another task");
            } else {
                verdicts.conclude(RowId.METHODS_SUBSCRIBE, Verdict.PASS, sent + " → " + Evidence.event(first)
                        + (running ? " while it ran" : ""));
            }
            return;
        }
        CallFailure f = ending instanceof Ending.Failed failed ? failed.failure() : null;
        calls.observeFailure(sent, f);
        if (f instanceof CallFailure.RpcError r && r.code() == JsonRpcError.METHOD_NOT_FOUND) {
            verdicts.conclude(RowId.METHODS_SUBSCRIBE, Verdict.WARN, sent + " → " + failure(f) + " (not implemented): after a "
                    + "dropped stream live text stops; Switchboard reads the task again with GetTask, with a backoff of up "
                    + "to a minute, until it ends");
        } else if (f instanceof CallFailure.RpcError r && r.code() == JsonRpcError.UNSUPPORTED_OPERATION) {
            // A2A answers -32004 to a subscription of a finished task: only a running task tells the method is missing
            Outcome<Task> read = calls.call(calls.method(A2aMethod.GET_TASK) + "(" + id(taskId) + ")",
                    calls.client().getTask(calls.endpoint(), taskId, 0));
            if (read.value() != null && read.value().state().isTerminal()) {
                started.observe(read.value());
                verdicts.conclude(RowId.METHODS_SUBSCRIBE, Verdict.PASS, sent + " → " + failure(f) + ": the task had already ended ("
                        + Evidence.state(read.value().state()) + "), which A2A answers so; the method is there");
            } else {
                verdicts.conclude(RowId.METHODS_SUBSCRIBE, Verdict.WARN, sent + " → " + failure(f) + " for a task that had not "
                        + "ended: after a dropped stream live text stops; Switchboard reads the task again with GetTask, "
                        + "with a backoff of up to a minute, until it ends");
            }
        } else if (ending instanceof Ending.Ended) {
            verdicts.conclude(RowId.METHODS_SUBSCRIBE, Verdict.FAIL, sent + " → a stream that ended without an event: "
                    + "Switchboard reads the task again with GetTask, with a backoff of up to a minute, until it ends");
        } else {
            verdicts.conclude(RowId.METHODS_SUBSCRIBE, Verdict.FAIL, sent + " → " + (ending == null ? "nothing" : Events.endingText(ending))
                    + ": after a dropped stream Switchboard cannot follow the task live");
        }
    }

    private void cancel(String taskId, boolean running) {
        String sent = calls.method(A2aMethod.CANCEL_TASK) + "(" + id(taskId) + ")";
        Outcome<Task> got = calls.call(sent, calls.client().cancelTask(calls.endpoint(), taskId));
        if (got.value() != null) {
            started.observe(got.value());
            if (got.value().state() == TaskState.CANCELED) {
                started.cancelled(taskId);
            }
            verdicts.conclude(RowId.METHODS_CANCEL, Verdict.PASS, sent + (running ? " while it ran" : "") + " → "
                    + Evidence.event(got.value()));
            return;
        }
        CallFailure f = got.failure();
        if (f instanceof CallFailure.RpcError r && r.code() == JsonRpcError.TASK_NOT_CANCELABLE) {
            verdicts.conclude(RowId.METHODS_CANCEL, Verdict.PASS, sent + " → " + failure(f) + ": the task had already ended "
                    + "(not cancelable); the method is there");
            return;
        }
        String not = f instanceof CallFailure.RpcError r && r.code() == JsonRpcError.METHOD_NOT_FOUND ? " (not implemented)" : "";
        verdicts.conclude(RowId.METHODS_CANCEL, Verdict.FAIL, sent + " → " + failure(f) + not + ": Switchboard retries a "
                + "cancel a few times and reports it as failed; the task keeps running on the agent");
    }
}
