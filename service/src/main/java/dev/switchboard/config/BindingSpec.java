package dev.switchboard.config;

import java.time.Duration;
import java.util.List;

/**
 * A {@code Binding} resource: chat channels connected to a backend, with the identity that calls it.
 * Exactly one of {@code userId} and {@code tokenSecretRef} is set.
 *
 * @param app the SlackApp whose channels these are ({@code spec.chat.app}); null on the web chat
 */
public record BindingSpec(
        String name,
        String backendRef,
        String platform,
        String app,
        List<String> channels,
        String userId,
        SecretRef tokenSecretRef,
        boolean questionsAllowed,
        Duration questionTimeout) {

    /** spec.questions.allowed when not given. */
    public static final boolean DEFAULT_QUESTIONS_ALLOWED = true;
    /** spec.questions.timeout when not given. */
    public static final Duration DEFAULT_QUESTION_TIMEOUT = Duration.ofHours(1);

    /** A web chat binding. */
    public BindingSpec(String name, String backendRef, String platform, List<String> channels, String userId,
            SecretRef tokenSecretRef, boolean questionsAllowed, Duration questionTimeout) {
        this(name, backendRef, platform, null, channels, userId, tokenSecretRef, questionsAllowed, questionTimeout);
    }
}
