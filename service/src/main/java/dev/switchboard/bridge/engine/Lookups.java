package dev.switchboard.bridge.engine;

import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.ListTasksResult;
import dev.switchboard.protocol.model.Task;
import java.util.Objects;

/**
 * Seed: Methods, ListTasks. Before a turn of unknown outcome is sent again into an existing context,
 * the agent is asked whether it already has it.
 */
final class Lookups {

    private Lookups() {}

    /**
     * ListTasks (1.0 only, with a context); a thread's first turn, and every 0.3 turn, is simply sent
     * again. An answer's paused task is known: it is read with GetTask, and the answer sent again only
     * if the task still asks.
     */
    static void lookup(Step s) {
        Session session = s.session();
        if (s.turn().question().answerMessageId() != null && s.turn().taskId() != null) {
            Following.readTask(s);
        } else if (session.agentVersion() == ProtocolVersion.V1_0 && session.contextId() != null) {
            s.phase(Phase.LISTING);
            s.following(f -> f.withListPages(0));
            s.view(TurnView.RETRYING);
            s.emit(new Effect.ListTasks(s.nextGen(), session.contextId(), null));
        } else if (!Objects.equals(session.currentFingerprint(), session.cardFingerprint())) {
            Discovery.begin(s);
        } else {
            Sends.send(s);
        }
    }

    /** A turn counts as found only if a task's history holds its messageId; up to 100 pages are read. */
    static void listed(Step s, ListTasksResult page) {
        s.following(f -> f.withListPages(f.listPages() + 1));
        String messageId = s.turn().messageId();
        for (Task t : page.tasks()) {
            if (holds(t, messageId)) {
                s.progress(p -> p.withTaskId(t.id()));
                s.retries(r -> r.withTroubleSince(null).withRetryAttempt(0));
                s.following(f -> f.withLastSignOfLife(s.now));
                if (t.artifacts() != null) {
                    Replies.replaceArtifacts(s, t.artifacts());
                }
                s.following(f -> f.withLastEventWasTask(true));
                TaskStates.status(s, t.status(), true);
                return;
            }
        }
        if (!page.nextPageToken().isEmpty() && s.turn().following().listPages() < Engine.MAX_LIST_PAGES) {
            s.emit(new Effect.ListTasks(s.nextGen(), s.session().contextId(), page.nextPageToken()));
            return;
        }
        Sends.send(s); // not found: sent again with the same messageId
    }

    /** A turn counts as found only if the task's history holds a message with the turn's messageId. */
    static boolean holds(Task t, String messageId) {
        return t.history() != null && t.history().stream().anyMatch(m -> messageId.equals(m.messageId()));
    }
}
