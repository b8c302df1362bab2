package dev.switchboard.log;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.MDC;

/**
 * The ids a log line is about (agent, binding, chat thread, turn), as MDC keys for the duration of one log call:
 * {@code try (LogContext ids = LogContext.agent(id)) { LOG.warn(...); }}. Vert.x runs many requests' callbacks on
 * one event loop, so the keys are set around the call and put back as they were at once; nothing is carried from
 * one request to the next. The JSON log format shows them as fields of {@code mdc}.
 */
public final class LogContext implements AutoCloseable {

    public static final String AGENT = "agent";
    public static final String BINDING = "binding";
    public static final String THREAD = "thread";
    public static final String TURN = "turn";
    /** Who called the gateway: an API key's name, a JWT's caller claim, or a remote address. */
    public static final String CALLER = "caller";

    private final List<String[]> previous = new ArrayList<>();

    private LogContext() {}

    public static LogContext agent(String id) {
        return new LogContext().put(AGENT, id);
    }

    public static LogContext binding(String name) {
        return new LogContext().put(BINDING, name);
    }

    public static LogContext thread(String id) {
        return new LogContext().put(THREAD, id);
    }

    public LogContext and(String key, String value) {
        return put(key, value);
    }

    private LogContext put(String key, String value) {
        if (value != null) {
            previous.add(new String[] {key, MDC.get(key)});
            MDC.put(key, value);
        }
        return this;
    }

    /** Puts back what the keys held before, in reverse order (a key set twice ends as it was at first). */
    @Override
    public void close() {
        for (int i = previous.size() - 1; i >= 0; i--) {
            String[] p = previous.get(i);
            if (p[1] == null) {
                MDC.remove(p[0]);
            } else {
                MDC.put(p[0], p[1]);
            }
        }
    }
}
