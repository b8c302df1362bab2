package dev.switchboard.check;

import static dev.switchboard.check.Evidence.failure;
import static dev.switchboard.check.Evidence.id;
import static dev.switchboard.check.Events.isSettled;

import dev.switchboard.bridge.engine.Contract;
import dev.switchboard.check.AgentCalls.Outcome;
import dev.switchboard.check.StreamProbe.Ending;
import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.model.ListTasksParams;
import dev.switchboard.protocol.model.ListTasksResult;
import dev.switchboard.protocol.model.Task;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The session rows and methods.list-tasks: one task at a time per context, finding a turn again by its messageId,
 * and a messageId sent again.
 */
final class SessionProbes {

    /** What the bridge asks ListTasks for (SessionDriver): a full page, with the history the lookup reads. */
    static final int LIST_PAGE_SIZE = 100;
    private static final int LIST_HISTORY = 1000;

    private final AgentCalls calls;
    private final Verdicts verdicts;
    private final StartedTasks started;
    private final Turns turns;

    SessionProbes(AgentCalls calls, Verdicts verdicts, StartedTasks started, Turns turns) {
        this.calls = calls;
        this.verdicts = verdicts;
        this.started = started;
        this.turns = turns;
    }

    /** sessions.one-task-per-context and methods.list-tasks, once both turns have settled. */
    void judgeSessions(Turn t1, Turn t2) {
        List<Turn> judged = new ArrayList<>();
        judged.add(t1);
        if (t2 != null && t2.taskId() != null && t2.contextId() != null) {
            judged.add(t2);
        }
        if (calls.endpoint().version() != ProtocolVersion.V1_0) {
            verdicts.conclude(RowId.METHODS_LIST_TASKS, Verdict.SKIP, "A2A 0.3: an 0.3 agent is never asked ListTasks; its turns of "
                    + "unknown outcome are always sent again");
        } else {
            listTasks(judged);
        }
        if (verdicts.concluded(RowId.SESSIONS_ONE_TASK_PER_CONTEXT)) {
            return;
        }
        // each task must have settled: the bridge never sends a turn into a context while one of its tasks runs
        List<String> states = new ArrayList<>();
        for (Turn t : judged) {
            Outcome<Task> read = calls.call(calls.method(A2aMethod.GET_TASK) + "(" + id(t.taskId()) + ")",
                    calls.client().getTask(calls.endpoint(), t.taskId(), 0));
            if (read.value() == null) {
                verdicts.conclude(RowId.SESSIONS_ONE_TASK_PER_CONTEXT, Verdict.SKIP, "GetTask failed, so the tasks could not be "
                        + "looked at (see methods.get-task)");
                return;
            }
            started.observe(read.value());
            states.add(id(t.taskId()) + " " + Evidence.state(read.value().state()));
            if (!isSettled(read.value().state())) {
                verdicts.conclude(RowId.SESSIONS_ONE_TASK_PER_CONTEXT, Verdict.FAIL, "task " + id(t.taskId()) + " of context "
                        + id(t.contextId()) + " is " + Evidence.state(read.value().state()) + " after its turn settled: "
                        + "Switchboard sends no new turn into a context while a task of it runs, and replies queue behind it");
                return;
            }
        }
        verdicts.conclude(RowId.SESSIONS_ONE_TASK_PER_CONTEXT, Verdict.PASS, "each turn's task had settled before the next was "
                + "sent, and none is left running (" + String.join(", ", states) + ")");
    }

    private void listTasks(List<Turn> judged) {
        Map<String, List<Turn>> byContext = new LinkedHashMap<>();
        for (Turn t : judged) {
            // without a context the list would hold every task of the agent, other people's too
            if (t.contextId() != null) {
                byContext.computeIfAbsent(t.contextId(), k -> new ArrayList<>()).add(t);
            }
        }
        if (byContext.isEmpty()) {
            verdicts.conclude(RowId.METHODS_LIST_TASKS, Verdict.SKIP, "no turn named its context, and ListTasks is asked by context "
                    + "(see replies.names-task-and-context)");
            return;
        }
        List<String> found = new ArrayList<>();
        for (Map.Entry<String, List<Turn>> e : byContext.entrySet()) {
            String contextId = e.getKey();
            List<Task> tasks = new ArrayList<>();
            String pageToken = null;
            String sent = calls.method(A2aMethod.LIST_TASKS) + "(contextId " + id(contextId) + ")";
            for (int page = 0; page < Contract.MAX_LIST_PAGES; page++) {
                Outcome<ListTasksResult> got = calls.call(sent, calls.client().listTasks(calls.endpoint(),
                        new ListTasksParams(contextId, null, LIST_PAGE_SIZE, pageToken, LIST_HISTORY, null, null, null)));
                if (got.failure() != null) {
                    String consequence = got.failure() instanceof CallFailure.RpcError r
                            && r.code() == JsonRpcError.METHOD_NOT_FOUND ? " (not implemented)" : "";
                    verdicts.conclude(RowId.METHODS_LIST_TASKS, Verdict.FAIL, sent + " → " + failure(got.failure()) + consequence
                            + ": before a turn of unknown outcome is sent again into a context, Switchboard looks it up "
                            + "with ListTasks; the lookup is retried, then the turn fails after 15 minutes");
                    return;
                }
                tasks.addAll(got.value().tasks());
                pageToken = got.value().nextPageToken();
                if (pageToken.isEmpty()) {
                    break;
                }
            }
            for (Task t : tasks) {
                if (started.started(t.id())) {
                    started.observe(t);
                }
            }
            List<Task> running = tasks.stream().filter(t -> !isSettled(t.state())).toList();
            if (!running.isEmpty()) {
                verdicts.conclude(RowId.SESSIONS_ONE_TASK_PER_CONTEXT, Verdict.FAIL, sent + " after its turns settled → "
                        + running.size() + " task(s) still running (" + running.stream().map(t -> id(t.id()) + " "
                        + Evidence.state(t.state())).collect(Collectors.joining(", ")) + "): Switchboard sends no new "
                        + "turn into a context while a task of it runs, and replies queue behind it");
            }
            for (Turn t : e.getValue()) {
                boolean holds = tasks.stream().anyMatch(task -> Contract.holdsTurn(task, t.messageId()));
                if (!holds) {
                    boolean listed = tasks.stream().anyMatch(task -> task.id().equals(t.taskId()));
                    verdicts.conclude(RowId.METHODS_LIST_TASKS, Verdict.FAIL, sent + " → " + tasks.size() + " task(s); "
                            + (listed ? "task " + id(t.taskId()) + " is listed but its history does not hold"
                                    : "none is the " + t.label() + "'s task " + id(t.taskId()) + " nor holds")
                            + " messageId " + id(t.messageId()) + ": a list without the turn's message makes it look absent, "
                            + "so Switchboard sends it, and it may run, again");
                    return;
                }
                found.add(t.label());
            }
        }
        verdicts.conclude(RowId.METHODS_LIST_TASKS, Verdict.PASS, "ListTasks by contextId found the " + String.join(" and ", found)
                + " by their messageIds in the tasks' history");
    }

    /** sessions.repeated-message-id: the first turn's messageId again, without a context. */
    void repeat(Turn t1) {
        Turn again = turns.finish(turns.open("repeat of the first turn", t1.messageId(), null, false));
        if (again.events().isEmpty()) {
            if (again.busyRefusals() >= Turns.SEND_TRIES) {
                verdicts.conclude(RowId.SESSIONS_REPEATED_MESSAGE_ID, Verdict.FAIL, again.sent() + " → -32004 on every try: "
                        + "Switchboard takes it as busy and would send it again for as long as it takes");
            } else {
                verdicts.conclude(RowId.SESSIONS_REPEATED_MESSAGE_ID, Verdict.FAIL, again.sent() + " → " + again.endingText()
                        + ": " + ReplyProbes.sendConsequence(again.ending() instanceof Ending.Failed f ? f.failure() : null));
            }
            return;
        }
        String taskId = again.taskId();
        if (taskId == null) {
            verdicts.conclude(RowId.SESSIONS_REPEATED_MESSAGE_ID, Verdict.SKIP, "the repeat's reply named no task (see replies.task-events)");
        } else if (taskId.equals(t1.taskId())) {
            verdicts.conclude(RowId.SESSIONS_REPEATED_MESSAGE_ID, Verdict.PASS, again.sent() + " → the first turn's task "
                    + id(taskId) + ": the turn ran once");
        } else {
            verdicts.conclude(RowId.SESSIONS_REPEATED_MESSAGE_ID, Verdict.WARN, again.sent() + " → a new task " + id(taskId)
                    + ": the agent ran the turn twice. Switchboard sends a thread's first turn again with the same "
                    + "messageId after an unknown outcome (a 5xx, a dropped connection), so such a turn may run twice");
        }
    }
}
