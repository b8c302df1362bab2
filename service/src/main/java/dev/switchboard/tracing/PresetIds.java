package dev.switchboard.tracing;

import io.opentelemetry.sdk.trace.IdGenerator;
import java.util.function.Supplier;

/**
 * Random ids, except for a span started inside {@link #with}: it gets the ids given there. A bridge turn is durable
 * and outlives the process that started it, so its span's ids are fixed by the turn (its stored trace id, a span id
 * derived from it) and the process that finishes the turn ends the same span that earlier calls were children of.
 * The SDK asks for the ids on the thread that starts the span, inside {@code startSpan()}.
 */
final class PresetIds implements IdGenerator {

    private static final IdGenerator RANDOM = IdGenerator.random();

    private final ThreadLocal<String[]> preset = new ThreadLocal<>();

    /** Runs {@code start} with the next trace id (used only for a span without a parent) and span id preset. */
    <T> T with(String traceId, String spanId, Supplier<T> start) {
        preset.set(new String[] {traceId, spanId});
        try {
            return start.get();
        } finally {
            preset.remove();
        }
    }

    @Override
    public String generateSpanId() {
        String[] p = preset.get();
        if (p != null && p[1] != null) {
            String id = p[1];
            p[1] = null;
            return id;
        }
        return RANDOM.generateSpanId();
    }

    @Override
    public String generateTraceId() {
        String[] p = preset.get();
        if (p != null && p[0] != null) {
            String id = p[0];
            p[0] = null;
            return id;
        }
        return RANDOM.generateTraceId();
    }
}
