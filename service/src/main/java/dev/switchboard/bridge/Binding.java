package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.bridge.engine.Platform;
import java.time.Duration;
import java.util.List;

/**
 * A Binding as the bridge runs it: chat channels of one platform connected to a backend, resolved from the
 * configuration (the backend's dialect is copied in; the identity's token is handed over beside it, never held in
 * a value that may be printed).
 *
 * @param app the SlackApp of a slack binding; null on the web chat
 * @param userId the {@code X-User-Id} sent when the binding has no token
 * @param dialect how the backend's agent speaks (plain A2A for a backend registered over the API)
 * @param agentRefNamespace kagent-v1: the agent's namespace
 * @param agentRefName kagent-v1: the agent's name
 * @param allowedUsers slack: who alone may start turns ({@code allowedUsers}), and approve when no approvers
 *     are named; empty: anyone
 * @param approvers slack: who may approve or reject a tool call ({@code questions.approvers}: user and user-group ids);
 *     empty for the default (the team's members, not guests)
 * @param feedbackToAgent slack: a person's 👍/👎 on an answer is also sent to the agent ({@link AnswerFeedback})
 */
public record Binding(
        String name,
        String backendRef,
        Platform platform,
        String app,
        List<String> channels,
        String userId,
        boolean questionsAllowed,
        Duration questionTimeout,
        Dialect dialect,
        String agentRefNamespace,
        String agentRefName,
        List<String> approvers,
        List<String> allowedUsers,
        boolean feedbackToAgent) {

    public Binding {
        channels = List.copyOf(channels);
        approvers = approvers == null ? List.of() : List.copyOf(approvers);
        allowedUsers = allowedUsers == null ? List.of() : List.copyOf(allowedUsers);
    }
}
