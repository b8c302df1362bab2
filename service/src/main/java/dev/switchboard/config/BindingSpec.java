package dev.switchboard.config;

import dev.switchboard.bridge.engine.Platform;
import java.time.Duration;
import java.util.List;

/**
 * A {@code Binding} resource: chat channels connected to a backend, with the identity that calls it.
 * Exactly one of {@code userId} and {@code tokenSecretRef} is set.
 *
 * @param app the SlackApp whose channels these are ({@code spec.chat.app}); null on the web chat
 * @param approvers {@code spec.questions.approvers}: the Slack user ({@code U…}, {@code W…}) and user-group
 *     ({@code S…}) ids who alone may approve or reject a tool call; empty when not given
 * @param allowedUsers {@code spec.allowedUsers}: the Slack user and user-group ids who alone may start turns
 *     (and approve, when no approvers are named); empty when not given
 * @param feedbackToAgent {@code spec.feedback.sendToAgent}: a person's 👍/👎 on an answer is also sent to the agent
 */
public record BindingSpec(
        String name,
        String backendRef,
        Platform platform,
        String app,
        List<String> channels,
        String userId,
        SecretRef tokenSecretRef,
        boolean questionsAllowed,
        Duration questionTimeout,
        List<String> approvers,
        List<String> allowedUsers,
        boolean feedbackToAgent) {

    /** A Slack user ({@code U…}, {@code W…} on Enterprise Grid) or user group ({@code S…}) id. */
    public static final String APPROVER_PATTERN = "^[UWS][A-Z0-9]{2,}$";

    public BindingSpec {
        approvers = approvers == null ? List.of() : List.copyOf(approvers);
        allowedUsers = allowedUsers == null ? List.of() : List.copyOf(allowedUsers);
    }

    /** spec.questions.allowed when not given. */
    public static final boolean DEFAULT_QUESTIONS_ALLOWED = true;
    /** spec.questions.timeout when not given. */
    public static final Duration DEFAULT_QUESTION_TIMEOUT = Duration.ofHours(1);

    /** A web chat Binding, questions allowed with the default timeout. */
    public static BindingSpec web(String name, String backendRef, List<String> channels, String userId) {
        return new BindingSpec(name, backendRef, Platform.WEB, null, channels, userId, null, DEFAULT_QUESTIONS_ALLOWED,
                DEFAULT_QUESTION_TIMEOUT, List.of(), List.of(), false);
    }
}
