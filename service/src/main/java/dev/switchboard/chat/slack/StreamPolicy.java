package dev.switchboard.chat.slack;

import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the poster streams natively now ({@code SlackApp.spec.streaming}, and in auto mode whether the workspace
 * refused a stream already), and the stream methods' budgets: {@code chat.startStream} and {@code chat.stopStream}
 * are Tier 2 (20 a minute), {@code chat.appendStream} Tier 4 (100 a minute); a burst plus a minute's refill stays
 * within the tier in any minute. Worker thread only (see {@link SlackPoster}).
 */
final class StreamPolicy {

    private static final Logger LOG = LoggerFactory.getLogger(StreamPolicy.class);

    final Budget starts;
    final Budget appends;
    final Budget stops;
    private final SlackStreaming streaming;
    private final Clock clock;
    /** auto mode, once the workspace refused a stream: edits from then on */
    private boolean refused;

    StreamPolicy(SlackStreaming streaming, Clock clock) {
        this.streaming = streaming;
        this.clock = clock;
        this.starts = new Budget(2, 18.0 / 60.0, clock);
        this.appends = new Budget(10, 90.0 / 60.0, clock);
        this.stops = new Budget(2, 18.0 / 60.0, clock);
    }

    /** Whether streams are ever used: not in edit mode (their turns' ends then stop nothing). */
    boolean everStreams() {
        return streaming != SlackStreaming.EDIT;
    }

    /** Whether a new message is to be a stream: not in edit mode, nor in auto mode once the workspace refused one. */
    boolean on() {
        return streaming != SlackStreaming.EDIT && !refused;
    }

    /**
     * Whether a stream may start now: native mode always does (it waits for the budget); auto mode only when the
     * start budget allows it now, else the message is shown by edits, so a burst of answers is shown at once.
     */
    boolean mayStartNow() {
        return streaming == SlackStreaming.NATIVE || !starts.availableAt().isAfter(clock.instant());
    }

    /** The workspace refused a stream: in auto mode, never again; in native mode, only this message is edited. */
    void refused() {
        if (streaming == SlackStreaming.AUTO) {
            refused = true;
            LOG.info("slack: the workspace refused native streaming; answers are shown by edits from now on");
        } else {
            LOG.warn("slack: the workspace refused native streaming (streaming: native); this message is shown by edits");
        }
    }
}
