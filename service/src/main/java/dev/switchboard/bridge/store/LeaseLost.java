package dev.switchboard.bridge.store;

/**
 * A step's commit found that this replica no longer holds the thread's lease (issue 12): another replica drives the
 * session now, and nothing of the step was written.
 */
public final class LeaseLost extends RuntimeException {
    public LeaseLost(String threadId) {
        super("this replica no longer holds the lease of thread " + threadId, null, false, false);
    }
}
