package dev.switchboard.check;

import static dev.switchboard.check.Events.blank;
import static dev.switchboard.check.Events.stateOf;

import dev.switchboard.bridge.engine.Contract;
import dev.switchboard.check.StreamProbe.Ending;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;
import java.time.Duration;
import java.util.List;

/** A turn as the checker saw it: the send, its events, how its stream ended. */
record Turn(String label, String messageId, String sent, List<StreamEvent> events, Ending ending,
        Duration longestGap, Duration lasted, int busyRefusals) {

    String taskId() {
        return events.stream().map(Events::taskId).filter(x -> !blank(x)).findFirst().orElse(null);
    }

    String contextId() {
        return events.stream().filter(e -> !(e instanceof Message)).map(Events::contextId).filter(x -> !blank(x))
                .findFirst().orElse(null);
    }

    TaskState lastState() {
        TaskState state = null;
        for (StreamEvent e : events) {
            TaskState s = stateOf(e);
            state = s == null ? state : s;
        }
        return state;
    }

    /** The answer as the bridge builds it from these events. */
    String answer() {
        return Contract.answerOf(events);
    }

    /** Text the bridge does not show: in status messages or bare Messages. */
    String textElsewhere() {
        StringBuilder sb = new StringBuilder();
        for (StreamEvent e : events) {
            if (e instanceof Message m) {
                sb.append(m.text());
            } else if (e instanceof TaskStatusUpdateEvent u && u.status().message() != null) {
                sb.append(u.status().message().text());
            } else if (e instanceof Task t && t.status().message() != null) {
                sb.append(t.status().message().text());
            }
        }
        return sb.toString();
    }

    /** How the stream ended, in words. */
    String endingText() {
        return events.isEmpty() && ending instanceof Ending.Ended ? "a stream with no event" : Events.endingText(ending);
    }
}
