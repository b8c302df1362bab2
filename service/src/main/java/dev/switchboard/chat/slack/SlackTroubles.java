package dev.switchboard.chat.slack;

import java.util.Map;

/** What to check when Slack refuses a call: the README's troubleshooting list, in the log line itself. */
final class SlackTroubles {

    private SlackTroubles() {}

    private static final Map<String, String> HINTS = Map.of(
            "invalid_auth", "the bot token is wrong or revoked: check the SlackApp's botToken Secret",
            "not_authed", "no token was sent: check the SlackApp's botToken Secret",
            "account_inactive", "the app was uninstalled or the token revoked: reinstall the app",
            "missing_scope", "the app lacks a scope: add it in the app manifest and reinstall",
            "not_in_channel", "the bot is not in the channel: /invite the app to it",
            "channel_not_found", "the channel id is wrong, or the bot cannot see a private channel: invite it",
            "is_archived", "the channel is archived",
            "msg_too_long", "the message is too long for Slack",
            "no_permission", "the token may not do this: check the app's scopes");

    /** apps.connections.open is called with the app-level token, not the bot token: its own hints. */
    static String socketHint(String error) {
        if ("invalid_auth".equals(error) || "not_authed".equals(error) || "not_allowed_token_type".equals(error)) {
            return " (the app-level token is wrong: check the SlackApp's appToken Secret, an xapp- token with "
                    + "connections:write)";
        }
        if ("missing_scope".equals(error)) {
            return " (the app-level token lacks connections:write)";
        }
        return hint(error);
    }

    /** A hint for the log ({@code " — check …"}), or nothing for an error without one. */
    static String hint(String error) {
        String h = error == null ? null : HINTS.get(error);
        return h == null ? "" : " (" + h + ")";
    }
}
