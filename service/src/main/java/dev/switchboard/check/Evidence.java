package dev.switchboard.check;

import dev.switchboard.bridge.engine.Contract;
import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskArtifactUpdateEvent;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Short descriptions of what was sent and what came back, for the reasons. Never a header value. */
final class Evidence {

    private static final int TEXT = 40;
    private static final int ID = 12;

    private Evidence() {}

    static String id(String id) {
        if (id == null) {
            return "none";
        }
        if (id.isBlank()) {
            return "\"\"";
        }
        return id.length() <= ID ? id : id.substring(0, ID) + "…";
    }

    static String text(String text) {
        if (text == null) {
            return "\"\"";
        }
        String one = text.replaceAll("\\s+", " ").strip();
        return "\"" + (one.length() <= TEXT ? one : one.substring(0, TEXT) + "…") + "\"";
    }

    static String state(TaskState s) {
        return s.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static String event(StreamEvent e) {
        if (e instanceof Task t) {
            return "Task(" + id(t.id()) + ", " + state(t.state()) + ")";
        } else if (e instanceof TaskStatusUpdateEvent u) {
            return "status-update(" + state(u.status().state()) + ")";
        } else if (e instanceof TaskArtifactUpdateEvent a) {
            String text = a.artifact() == null ? "" : Contract.shownText(a.artifact().parts());
            return "artifact-update(" + text(text) + (a.append() ? ", append" : "") + ")";
        } else if (e instanceof Message m) {
            return "Message(" + text(m.text()) + ")";
        }
        return String.valueOf(e);
    }

    /** The events, the first three and the last two when there are more. */
    static String events(List<StreamEvent> events) {
        if (events.isEmpty()) {
            return "no event";
        }
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            if (i < 3 || i >= events.size() - 2) {
                shown.add(event(events.get(i)));
            } else if (i == 3) {
                shown.add("… " + (events.size() - 5) + " more");
            }
        }
        return String.join(", ", shown);
    }

    static String failure(CallFailure f) {
        if (f instanceof CallFailure.HttpStatus h) {
            return "HTTP " + h.status();
        } else if (f instanceof CallFailure.RpcError r) {
            return "JSON-RPC error " + r.code() + (r.message() == null ? "" : " " + text(r.message()));
        } else if (f instanceof CallFailure.Transport t) {
            return switch (t.kind()) {
                case CONNECT -> "could not connect (" + t.detail() + ")";
                case HEADERS_TIMEOUT -> "no response headers in time";
                case LOST -> "the connection was lost (" + t.detail() + ")";
            };
        } else if (f instanceof CallFailure.Malformed m) {
            return "not A2A: " + m.detail();
        }
        return String.valueOf(f);
    }

    static String duration(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + " ms";
        }
        if (ms < 120_000) {
            return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
        }
        return String.format(Locale.ROOT, "%.1f min", ms / 60_000.0);
    }
}
