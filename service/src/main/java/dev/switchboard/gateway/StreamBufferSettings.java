package dev.switchboard.gateway;

import java.time.Duration;

/**
 * {@code Server.spec.gateway.streamBuffer}: how much of each task's relayed stream is kept for a caller that
 * reconnects with {@code Last-Event-ID} (G13). Everything is bounded: events and bytes per task, their age, and the
 * number of tasks buffered at once (the least recently written ended stream goes first).
 *
 * @param events events kept per task; 0 turns buffering (and the {@code id:} lines) off
 * @param bytes bytes kept per task
 * @param age events older than this are forgotten
 * @param tasks tasks buffered at once, per replica
 * @param holdAfterDrop how long a task's stream to the agent is still read into the buffer after its caller went
 *     away (its slot of the agent's cap stays taken meanwhile); zero closes it at once (G8)
 */
public record StreamBufferSettings(int events, long bytes, Duration age, int tasks, Duration holdAfterDrop) {

    public static final StreamBufferSettings DEFAULTS =
            new StreamBufferSettings(1000, 256L * 1024, Duration.ofMinutes(10), 256, Duration.ZERO);

    public StreamBufferSettings {
        if (events < 0 || bytes < 0 || tasks < 0) {
            throw new IllegalArgumentException("streamBuffer limits must not be negative");
        }
        age = age == null ? DEFAULTS.age() : age;
        holdAfterDrop = holdAfterDrop == null ? Duration.ZERO : holdAfterDrop;
    }

    public boolean enabled() {
        return events > 0 && bytes > 0 && tasks > 0;
    }
}
