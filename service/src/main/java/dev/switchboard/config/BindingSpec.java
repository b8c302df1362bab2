package dev.switchboard.config;

import java.time.Duration;
import java.util.List;

/**
 * A {@code Binding} resource: chat channels connected to a backend, with the identity that calls it.
 * Exactly one of {@code userId} and {@code tokenSecretRef} is set.
 */
public record BindingSpec(
        String name,
        String backendRef,
        String platform,
        List<String> channels,
        String userId,
        SecretRef tokenSecretRef,
        boolean questionsAllowed,
        Duration questionTimeout) {}
