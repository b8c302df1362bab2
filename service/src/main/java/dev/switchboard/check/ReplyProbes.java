package dev.switchboard.check;

import static dev.switchboard.check.Evidence.id;
import static dev.switchboard.check.Events.blank;
import static dev.switchboard.check.Events.contextId;
import static dev.switchboard.check.Events.taskId;

import dev.switchboard.bridge.engine.Contract;
import dev.switchboard.bridge.engine.Notices;
import dev.switchboard.check.StreamProbe.Ending;
import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskState;
import java.util.List;
import java.util.regex.Pattern;

/** The turn and reply rows: whether a send is answered, and what the answering events name and carry. */
final class ReplyProbes {

    /** How the codec says an event lacks its task's id or context. */
    private static final Pattern NO_IDS = Pattern.compile("\\b(id|taskId|contextId): missing");

    private final Verdicts verdicts;
    private final Turns turns;
    private final EventGaps gaps;

    ReplyProbes(Verdicts verdicts, Turns turns, EventGaps gaps) {
        this.verdicts = verdicts;
        this.turns = turns;
        this.gaps = gaps;
    }

    /** A send that failed before any event concludes its row and stops the probes. */
    boolean delivered(Turn t) {
        if (!t.events().isEmpty()) {
            return true;
        }
        String what = t.sent() + " → " + t.endingText();
        if (t.ending() instanceof Ending.Failed f) {
            CallFailure cause = f.failure();
            if (cause instanceof CallFailure.HttpStatus h && h.status() >= 300 && h.status() < 400) {
                verdicts.conclude(RowId.METHODS_SEND_STREAMING, Verdict.SKIP, "the send was redirected (see transport.no-redirect)");
                verdicts.stop("needs a turn (see transport.no-redirect)");
                return false;
            }
            if (cause instanceof CallFailure.Transport tr && tr.kind() == CallFailure.TransportKind.HEADERS_TIMEOUT) {
                verdicts.conclude(RowId.METHODS_SEND_STREAMING, Verdict.SKIP, "the send got no response headers (see transport.headers-in-30s)");
                verdicts.stop("needs a turn (see transport.headers-in-30s)");
                return false;
            }
            if (cause instanceof CallFailure.Malformed m && NO_IDS.matcher(m.detail()).find()) {
                // the codec refuses an event without its task's id, as the bridge does
                verdicts.conclude(RowId.REPLIES_NAMES_TASK_AND_CONTEXT, Verdict.FAIL, what + ": an event that names no task is, as "
                        + "a bare Message, an unknown outcome: the turn is sent again");
                verdicts.conclude(RowId.METHODS_SEND_STREAMING, Verdict.SKIP, "the stream's events named no task (see "
                        + "replies.names-task-and-context)");
                verdicts.stop("needs a turn answered with task events that name their task (see replies.names-task-and-context)");
                return false;
            }
            if (cause instanceof CallFailure.HttpStatus h && (h.status() == 401 || h.status() == 403)) {
                throw new CouldNotRun(what + ": the agent rejected the credentials; give them with --token or --header");
            }
            if (cause instanceof CallFailure.RpcError r && r.code() == JsonRpcError.UNSUPPORTED_OPERATION) {
                verdicts.conclude(RowId.METHODS_SEND_STREAMING, Verdict.SKIP, "every send was refused as busy (see errors.busy-only-when-busy)");
                verdicts.stop("needs a turn (see errors.busy-only-when-busy)");
                return false;
            }
            String consequence = cause instanceof CallFailure.RpcError r && r.code() == JsonRpcError.METHOD_NOT_FOUND
                    ? ": SendStreamingMessage is not implemented, so nothing works"
                    : ": " + sendConsequence(cause);
            verdicts.conclude(RowId.METHODS_SEND_STREAMING, Verdict.FAIL, what + consequence);
        } else {
            verdicts.conclude(RowId.METHODS_SEND_STREAMING, Verdict.FAIL, what
                    + ": a stream that ends without a single event says nothing; the outcome is unknown and the turn is sent again");
        }
        verdicts.stop("needs a turn (see methods.send-streaming)");
        return false;
    }

    /** What the bridge does with a send that failed before any event (seed: Errors). */
    static String sendConsequence(CallFailure f) {
        if (f instanceof CallFailure.HttpStatus h && h.status() >= 400 && h.status() < 500 && h.status() != 408
                && h.status() != 429) {
            return "not sent; Switchboard retries, then fails the turn after 15 minutes";
        }
        if (f instanceof CallFailure.RpcError r && r.code() == -31403) {
            return "the identity is refused for this session: the turn fails";
        }
        if (f instanceof CallFailure.RpcError r && r.status() >= 400 && r.status() < 500) {
            return "not sent; Switchboard retries, then fails the turn after 15 minutes";
        }
        return "the outcome is unknown: Switchboard looks the turn up with ListTasks where it can, then sends it again";
    }

    /** The first turn, delivered: methods.send-streaming, then its events. */
    void judgeFirstTurn(Turn t1) {
        verdicts.conclude(RowId.METHODS_SEND_STREAMING, Verdict.PASS, t1.sent() + " → " + Evidence.events(t1.events()));
        gaps.add(t1);
        judgeEvents(t1);
    }

    private void judgeEvents(Turn t) {
        List<StreamEvent> events = t.events();
        StreamEvent firstEvent = events.get(0);
        if (firstEvent instanceof Message) {
            verdicts.conclude(RowId.REPLIES_TASK_EVENTS, Verdict.FAIL, t.sent() + " → " + Evidence.events(events)
                    + ": a bare Message names no task, so the outcome is unknown; Switchboard sends the turn again, and it "
                    + "may run again, until it fails after 15 minutes with \"" + Notices.UNREACHABLE + "\"");
            verdicts.conclude(RowId.REPLIES_NAMES_TASK_AND_CONTEXT, Verdict.SKIP, "the reply was a bare Message (see replies.task-events)");
            return;
        }
        String known = null;
        for (int i = 0; i < events.size(); i++) {
            StreamEvent e = events.get(i);
            if (e instanceof Message) {
                continue; // after the task is known a bare Message changes nothing (its text is not shown)
            }
            String taskId = taskId(e);
            String contextId = contextId(e);
            String missing = blank(taskId) ? "no task id" : blank(contextId) ? "no contextId"
                    : known != null && !known.equals(taskId) ? "another task (" + id(taskId) + ", not " + id(known) + ")" : null;
            if (missing != null) {
                verdicts.conclude(RowId.REPLIES_NAMES_TASK_AND_CONTEXT, Verdict.FAIL, t.label() + ": event " + (i + 1) + " of "
                        + events.size() + ", " + Evidence.event(e) + ", names " + missing
                        + ": as for a bare Message, the outcome is unknown and the turn is sent again");
                break;
            }
            known = taskId;
        }
        verdicts.conclude(RowId.REPLIES_TASK_EVENTS, Verdict.PASS, t.label() + " answered with " + Evidence.events(events));
        verdicts.conclude(RowId.REPLIES_NAMES_TASK_AND_CONTEXT, Verdict.PASS, "every event named task " + id(t.taskId())
                + " and context " + id(t.contextId()));
    }

    void judgeCreatesContext(Turn t1, Task read) {
        if (t1.contextId() == null) {
            verdicts.conclude(RowId.REPLIES_CREATES_CONTEXT, Verdict.SKIP, "no event named a context (see replies.names-task-and-context)");
            return;
        }
        if (read != null && !t1.contextId().equals(read.contextId())) {
            verdicts.conclude(RowId.REPLIES_CREATES_CONTEXT, Verdict.FAIL, "the first turn's stream named context " + id(t1.contextId())
                    + " but GetTask(" + id(t1.taskId()) + ") says " + id(read.contextId())
                    + ": the next turn is sent into a context the agent does not keep");
            return;
        }
        verdicts.conclude(RowId.REPLIES_CREATES_CONTEXT, Verdict.PASS, "the first turn, sent with no contextId, got context "
                + id(t1.contextId()) + (read != null ? ", the same in GetTask" : ""));
    }

    /** replies.artifact-text, from the first turn's settled task. */
    void judgeAnswer(Turn t, Task read) {
        TaskState state = read != null ? read.state() : t.lastState();
        String answer = t.answer();
        if (answer.isEmpty() && read != null) {
            answer = Contract.answerOf(read);
        }
        if (!answer.isEmpty()) {
            verdicts.conclude(RowId.REPLIES_ARTIFACT_TEXT, Verdict.PASS, "the answer came as artifact text: " + Evidence.text(answer));
            return;
        }
        if (state == TaskState.COMPLETED) {
            String elsewhere = t.textElsewhere();
            verdicts.conclude(RowId.REPLIES_ARTIFACT_TEXT, Verdict.FAIL, "the first turn's task completed with no artifact text"
                    + (elsewhere.isEmpty() ? "" : " (its text " + Evidence.text(elsewhere)
                            + " came in a status message, history or a bare Message, which is not shown)")
                    + ": Switchboard posts \"" + Notices.NO_OUTPUT + "\"");
            return;
        }
        verdicts.conclude(RowId.REPLIES_ARTIFACT_TEXT, Verdict.SKIP, "the first turn's task ended " + (state == null ? "in no known state"
                : Evidence.state(state)) + " without an answer, so there was no answer to look at");
    }

    /** replies.keeps-context, from a second turn sent into the context the agent made. */
    void judgeSecondTurn(Turn t1, Turn t2) {
        if (t2.events().isEmpty()) {
            if (t2.busyRefusals() >= Turns.SEND_TRIES) {
                verdicts.conclude(RowId.REPLIES_KEEPS_CONTEXT, Verdict.SKIP, "the second turn was refused as busy (see errors.busy-only-when-busy)");
            } else {
                verdicts.conclude(RowId.REPLIES_KEEPS_CONTEXT, Verdict.FAIL, t2.sent() + " → " + t2.endingText()
                        + ": the agent does not take a turn into the context it made");
            }
            return;
        }
        gaps.add(t2);
        judgeEvents(t2);
        if (t2.contextId() == null) {
            verdicts.conclude(RowId.REPLIES_KEEPS_CONTEXT, Verdict.SKIP, "the second turn's events named no context (see replies.names-task-and-context)");
        } else if (t2.contextId().equals(t1.contextId())) {
            verdicts.conclude(RowId.REPLIES_KEEPS_CONTEXT, Verdict.PASS, "the second turn, sent with contextId " + id(t1.contextId())
                    + ", stayed in it (task " + id(t2.taskId()) + ")");
        } else {
            verdicts.conclude(RowId.REPLIES_KEEPS_CONTEXT, Verdict.FAIL, "the second turn, sent with contextId " + id(t1.contextId())
                    + ", came back in context " + id(t2.contextId()) + ": Switchboard posts \"" + Notices.CONTEXT_CHANGED
                    + "\" and keeps the new context");
        }
        if (t2.taskId() != null) {
            turns.settle(t2, false);
        }
    }
}
