package dev.switchboard.bridge.engine;

import dev.switchboard.protocol.kagent.StepCard;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Artifact;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskArtifactUpdateEvent;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Seed: Replies. The events a stream brings: which task and context they name, the answer in artifact
 * text, and how a stream must end. Bounds (issue 8): an answer is cut at {@code maxAnswerChars}.
 */
final class Replies {

    private Replies() {}

    static void event(Step s, StreamEvent event) {
        String taskId;
        String contextId;
        if (event instanceof Task t) {
            taskId = t.id();
            contextId = t.contextId();
        } else if (event instanceof TaskStatusUpdateEvent u) {
            taskId = u.taskId();
            contextId = u.contextId();
        } else if (event instanceof TaskArtifactUpdateEvent a) {
            taskId = a.taskId();
            contextId = a.contextId();
        } else {
            if (s.turn().taskId() != null) {
                // the task is known: a bare Message changes nothing, and its text is not shown
                return;
            }
            // a bare Message names no task, so the outcome is unknown
            badEvent(s);
            return;
        }
        String known = s.turn().taskId();
        if (Step.isBlank(taskId) || Step.isBlank(contextId) || (known != null && !known.equals(taskId))) {
            // events must name the task and its context, else as for a bare Message
            badEvent(s);
            return;
        }
        if (signOfLife(s, event)) {
            s.following(f -> f.withLastSignOfLife(s.now).withPollAttempt(0));
        }
        adoptContext(s, contextId);
        s.progress(p -> p.withTaskId(taskId));
        s.retries(r -> r.withBusySince(null).withTroubleSince(null).withRetryAttempt(0));
        s.phase(Phase.STREAMING);
        s.following(f -> f.withLastEventWasTask(event instanceof Task));
        if (event instanceof Task t) {
            if (t.artifacts() != null) {
                replaceArtifacts(s, t.artifacts());
            }
            TaskStates.status(s, t.status(), false);
        } else if (event instanceof TaskStatusUpdateEvent u) {
            steps(s, u.status().message());
            TaskStates.status(s, u.status(), false);
        } else if (event instanceof TaskArtifactUpdateEvent a) {
            s.question(q -> q.withAnswerPending(false));
            artifact(s, a);
        }
        // every event restarts the 5-minute silence limit (its timer re-arms itself when it fires early)
        s.following(f -> f.withSilenceDeadline(s.now.plus(s.d.silenceLimit())));
    }

    /**
     * kagent-v1 shows kagent's tool-call and tool-result data parts as step cards (seed: "Data parts are not shown
     * either, except on kagent-v1"); they come in the status messages sent while the agent works. A step read again
     * (a resent status, the task read after a restart) is the same card: the store keeps one per call and kind.
     */
    static void steps(Step s, Message statusMessage) {
        if (s.isA2a() || statusMessage == null) {
            return;
        }
        for (StepCard card : StepCard.of(statusMessage.parts())) {
            s.emit(new Effect.ShowStep(s.turn().messageId(), card));
        }
    }

    /**
     * An event the turn cannot use. On a send the outcome is unknown; on a subscription the task is
     * known, so it is simply read again.
     */
    static void badEvent(Step s) {
        s.emit(new Effect.CloseStream());
        if (s.turn().following().subscribed() && s.turn().taskId() != null) {
            Following.lost(s);
        } else {
            Errors.unknownOutcome(s, null);
        }
    }

    /**
     * Methods, CancelTask: a sign of life is news from the task. Updates are; a full Task is only
     * when it differs from what was known (the snapshot that opens every subscription is not).
     */
    static boolean signOfLife(Step s, StreamEvent event) {
        return !(event instanceof Task t) || changed(s, t);
    }

    static boolean changed(Step s, Task t) {
        Turn turn = s.turn();
        return turn.progress().lastState() != t.state()
                || (t.status().timestamp() != null && !t.status().timestamp().equals(turn.progress().lastStatusTimestamp()))
                || (t.artifacts() != null && !capped(joined(t.artifacts()), s.maxAnswerChars).equals(turn.answer()));
    }

    /** A different contextId posts the notice and the new context is kept. */
    static void adoptContext(Step s, String contextId) {
        String known = s.session().contextId();
        if (known != null && !known.equals(contextId)) {
            s.notice(Notices.CONTEXT_CHANGED);
        }
        s.session(x -> x.withContextId(contextId));
    }

    /**
     * An artifact update with append adds to that artifact's text, anything else replaces it;
     * lastChunk is not read. Text beyond {@code maxAnswerChars} is dropped, so appends past the cap change nothing.
     */
    static void artifact(Step s, TaskArtifactUpdateEvent a) {
        Artifact art = a.artifact();
        if (art == null) {
            return;
        }
        String before = shown(s);
        Map<String, String> artifacts = new LinkedHashMap<>(s.turn().progress().artifacts());
        apply(artifacts, a);
        boolean cut = cap(artifacts, s.maxAnswerChars);
        s.progress(p -> p.withArtifacts(artifacts).withAnswerCut(p.answerCut() || cut));
        showIfChanged(s, before);
    }

    /** The text of each artifact, by artifactId, after an update: append adds to that artifact's text, else replaces it. */
    static void apply(Map<String, String> artifacts, TaskArtifactUpdateEvent a) {
        Artifact art = a.artifact();
        if (art == null) {
            return;
        }
        String key = art.artifactId() == null ? "" : art.artifactId();
        String text = text(art.parts());
        if (a.append()) {
            artifacts.merge(key, text, String::concat);
        } else {
            artifacts.put(key, text);
        }
    }

    /** The text of each artifact of a full Task, by artifactId: it replaces whatever the updates said. */
    static Map<String, String> texts(List<Artifact> list) {
        Map<String, String> artifacts = new LinkedHashMap<>();
        for (Artifact a : list) {
            artifacts.put(a.artifactId() == null ? "" : a.artifactId(), text(a.parts()));
        }
        return artifacts;
    }

    static void replaceArtifacts(Step s, List<Artifact> list) {
        String before = shown(s);
        Map<String, String> artifacts = texts(list);
        boolean cut = cap(artifacts, s.maxAnswerChars);
        s.progress(p -> p.withArtifacts(artifacts).withAnswerCut(cut));
        showIfChanged(s, before);
    }

    private static void showIfChanged(Step s, String before) {
        String now = shown(s);
        if (!now.equals(before)) {
            s.emit(new Effect.ShowAnswer(s.turn().messageId(), now));
        }
    }

    /** Cuts the artifact texts so that together they hold at most {@code max} characters; true when it cut any. */
    static boolean cap(Map<String, String> artifacts, int max) {
        int budget = max;
        boolean cut = false;
        for (Map.Entry<String, String> e : artifacts.entrySet()) {
            String v = e.getValue();
            if (v.length() > budget) {
                e.setValue(capped(v, budget));
                cut = true;
            }
            budget -= e.getValue().length();
        }
        return cut;
    }

    /** The first {@code max} characters, without half a surrogate pair at the end. */
    static String capped(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = Math.max(0, max);
        if (end > 0 && end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, Math.min(end, text.length()));
    }

    /** What the thread shows: the answer, and when it was cut, a note saying where. */
    static String shown(Step s) {
        Turn t = s.turn();
        return t.progress().answerCut() ? t.answer() + Engine.cutNote(s.maxAnswerChars) : t.answer();
    }

    static String joined(List<Artifact> artifacts) {
        StringBuilder sb = new StringBuilder();
        for (Artifact a : artifacts) {
            sb.append(text(a.parts()));
        }
        return sb.toString();
    }

    /** Only artifact text parts are shown; file and data parts never are. */
    static String text(List<Part> parts) {
        StringBuilder sb = new StringBuilder();
        for (Part p : parts) {
            if (p instanceof Part.Text t && t.text() != null) {
                sb.append(t.text());
            }
        }
        return sb.toString();
    }

    static void streamEnded(Step s) {
        Turn t = s.turn();
        if (t.phase() == Phase.SENDING) {
            Errors.unknownOutcome(s, null); // closed without a single event: nothing says what happened
        } else if (t.following().subscribed()) {
            Following.lost(s);
        } else if (t.phase() == Phase.STREAMING) {
            settle(s);
        }
    }

    /**
     * The stream must end with a full Task in a terminal, input-required or auth-required state (such
     * a Task settles the turn as it arrives, and its stream's end is then stale); a stream that ends
     * any other way counts as dropped, and GetTask settles the turn after a second.
     */
    static void settle(Step s) {
        Timers.waitThen(s, Turn.Next.GET_TASK, s.d.settleDelay());
    }
}
