package dev.switchboard.config;

import dev.switchboard.chat.slack.SlackMode;
import dev.switchboard.chat.slack.SlackStreaming;

/**
 * A {@code SlackApp} resource: one Slack app (one workspace's bot) that Bindings of platform {@code slack} name in
 * {@code spec.chat.app}. Events mode receives signed HTTP requests at {@code /slack/events} and
 * {@code /slack/interactions}; socket mode opens a Socket Mode connection with the app-level token and needs no
 * public URL.
 *
 * @param signingSecret events mode only
 * @param appToken socket mode only ({@code xapp-…})
 * @param apiUrl the Web API's URL prefix, ending in {@code /}: Slack's own, a proxy, or a test's fake
 * @param streaming how answers stream: native, edit, or auto (native where the workspace accepts it)
 */
public record SlackAppSpec(
        String name,
        SlackMode mode,
        SecretRef botToken,
        SecretRef signingSecret,
        SecretRef appToken,
        String apiUrl,
        SlackStreaming streaming) {

    public static final String DEFAULT_API_URL = "https://slack.com/api/";

}
