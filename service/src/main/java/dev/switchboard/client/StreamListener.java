package dev.switchboard.client;

import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.model.StreamEvent;

/**
 * Receives one stream's outcome. Exactly one of {@link #onEnd} and {@link #onFailure} is called,
 * after any number of {@link #onEvent}s, all on the calling Vert.x context.
 */
public interface StreamListener {

    void onEvent(StreamEvent event);

    /** The agent closed the stream normally. */
    void onEnd();

    /** @param afterEvents true when at least one event arrived before the failure */
    void onFailure(CallFailure failure, boolean afterEvents);
}
