package dev.switchboard.app;

import dev.switchboard.chat.slack.SlackPlatform;
import dev.switchboard.config.SecretRef;
import dev.switchboard.config.SwitchboardConfig;
import java.util.List;

/** The configuration's SlackApp resources with their secrets resolved (the loader checked that they exist). */
final class SlackApps {

    private SlackApps() {}

    static List<SlackPlatform.App> of(SwitchboardConfig config) {
        return config.slackApps().stream().map(a -> new SlackPlatform.App(a.name(), a.mode(), a.apiUrl(), secret(config, a.botToken()),
                secret(config, a.signingSecret()), secret(config, a.appToken()), a.streaming())).toList();
    }

    private static String secret(SwitchboardConfig config, SecretRef ref) {
        return ref == null ? null : config.secret(ref).orElseThrow();
    }

}
