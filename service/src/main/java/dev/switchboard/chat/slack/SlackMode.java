package dev.switchboard.chat.slack;

import java.util.Locale;

/** How a Slack app's events reach Switchboard: signed HTTP requests, or a Socket Mode connection it opens. */
public enum SlackMode {
    EVENTS, SOCKET;

    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
