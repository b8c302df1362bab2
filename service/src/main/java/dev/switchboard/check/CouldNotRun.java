package dev.switchboard.check;

/** The agent could not be probed at all (unreachable, credentials refused): exit 2. */
final class CouldNotRun extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CouldNotRun(String message) {
        super(message, null, false, false);
    }
}
