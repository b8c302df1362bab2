package dev.switchboard.client;

import dev.switchboard.protocol.CallFailure;
import java.util.Objects;

/**
 * A failed Future's cause for a call that did not succeed, carrying the typed {@link CallFailure}
 * the bridge decides on. The message names the failure only: never a header value.
 */
public final class CallException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient CallFailure failure;

    public CallException(CallFailure failure) {
        // No stack trace: the failure is an answer from the network, not a bug, and the trace would
        // only ever point into the client's own callbacks.
        super(Objects.requireNonNull(failure, "failure").toString(), null, false, false);
        this.failure = failure;
    }

    public CallFailure failure() {
        return failure;
    }
}
