package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.CallFailure;

/** The HTTP client's call failures in the engine's terms: the one place the two types meet. */
final class EngineFailures {

    private EngineFailures() {}

    static CallFailure of(dev.switchboard.client.CallFailure failure) {
        if (failure instanceof dev.switchboard.client.CallFailure.HttpStatus h) {
            return new CallFailure.HttpStatus(h.status(), h.retryAfter());
        } else if (failure instanceof dev.switchboard.client.CallFailure.RpcError r) {
            return new CallFailure.RpcError(r.code(), r.message(), r.retryAfter(), r.status());
        } else if (failure instanceof dev.switchboard.client.CallFailure.Transport t) {
            return new CallFailure.Transport(kind(t.kind()), t.detail());
        }
        return new CallFailure.Malformed(((dev.switchboard.client.CallFailure.Malformed) failure).detail());
    }

    private static CallFailure.TransportKind kind(dev.switchboard.client.CallFailure.TransportKind kind) {
        return switch (kind) {
            case CONNECT -> CallFailure.TransportKind.CONNECT;
            case HEADERS_TIMEOUT -> CallFailure.TransportKind.HEADERS_TIMEOUT;
            case LOST -> CallFailure.TransportKind.LOST;
        };
    }
}
