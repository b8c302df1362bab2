package dev.switchboard.check;

import static dev.switchboard.check.Evidence.duration;
import static dev.switchboard.check.Evidence.failure;

import dev.switchboard.check.StreamProbe.Ending;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskArtifactUpdateEvent;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;

/** What a stream event names (its task, context, state) and how a stream ended, as the checker reads them. */
final class Events {

    private Events() {}

    static String taskId(StreamEvent e) {
        if (e instanceof Task t) {
            return t.id();
        } else if (e instanceof TaskStatusUpdateEvent u) {
            return u.taskId();
        } else if (e instanceof TaskArtifactUpdateEvent a) {
            return a.taskId();
        }
        return null;
    }

    static String contextId(StreamEvent e) {
        if (e instanceof Task t) {
            return t.contextId();
        } else if (e instanceof TaskStatusUpdateEvent u) {
            return u.contextId();
        } else if (e instanceof TaskArtifactUpdateEvent a) {
            return a.contextId();
        } else if (e instanceof Message m) {
            return m.contextId();
        }
        return null;
    }

    static TaskState stateOf(StreamEvent e) {
        if (e instanceof Task t) {
            return t.state();
        } else if (e instanceof TaskStatusUpdateEvent u) {
            return u.status().state();
        }
        return null;
    }

    static boolean isSettled(TaskState s) {
        return s != null && (s.isTerminal() || s.isInterrupted());
    }

    static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    static String endingText(Ending e) {
        if (e instanceof Ending.Failed f) {
            return failure(f.failure());
        }
        if (e instanceof Ending.Cut c) {
            return (c.idle() ? "no event for " : "still open after ") + duration(c.silent()) + ", cut by the checker";
        }
        return "the stream ended";
    }
}
