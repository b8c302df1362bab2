package dev.switchboard.push;

/**
 * A caller's push config as the gateway keeps it.
 *
 * @param callbackId random; the last segment of the callback URL the agent is given
 * @param version {@code 1.0} or {@code 0.3}, as the caller set it
 * @param token the caller's token (sent back to it), or null
 * @param authJson the caller's {@code authentication} object as JSON, or null
 * @param secret what the agent must send in {@code X-A2A-Notification-Token} on the callback (never shown to anyone)
 */
public record PushConfig(String callbackId, String agentId, String taskId, String configId, String callerId,
        String version, String url, String token, String authJson, String secret, long createdAtMillis) {

    @Override
    public String toString() {
        // the secret and the caller's token and credentials never reach a log line
        return "PushConfig[" + agentId + "/" + taskId + "/" + configId + " -> " + url + "]";
    }
}
