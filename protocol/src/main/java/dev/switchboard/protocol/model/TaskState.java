package dev.switchboard.protocol.model;

/**
 * The lifecycle state of a task, version-neutral. The proto numbers are the 1.0 enum numbers,
 * which ProtoJSON readers must also accept.
 */
public enum TaskState {
    UNSPECIFIED(0),
    SUBMITTED(1),
    WORKING(2),
    COMPLETED(3),
    FAILED(4),
    CANCELED(5),
    INPUT_REQUIRED(6),
    REJECTED(7),
    AUTH_REQUIRED(8);

    private final int number;

    TaskState(int number) {
        this.number = number;
    }

    public int number() {
        return number;
    }

    /** completed, failed, canceled, rejected: the task will never change again. */
    public boolean isTerminal() {
        return this == COMPLETED || this == FAILED || this == CANCELED || this == REJECTED;
    }

    /** input-required, auth-required: the task waits for the client. */
    public boolean isInterrupted() {
        return this == INPUT_REQUIRED || this == AUTH_REQUIRED;
    }
}
