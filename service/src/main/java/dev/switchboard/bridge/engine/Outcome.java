package dev.switchboard.bridge.engine;

/** How a turn ended. */
public enum Outcome {
    COMPLETED,
    FAILED,
    REJECTED,
    CANCELED,
    /** the agent could not be reached, refused, or the session is gone: nothing the agent said */
    NOT_DELIVERED
}
