package dev.switchboard.bridge.engine;

/** A turn's state as a thread shows it. */
public enum TurnView {
    QUEUED, SENDING, RUNNING, WAITING_FOR_ANSWER, PAUSED, RETRYING, CANCELLING,
    COMPLETED, FAILED, REJECTED, CANCELED, NOT_DELIVERED
}
