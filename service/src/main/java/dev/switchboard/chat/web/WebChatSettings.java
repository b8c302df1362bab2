package dev.switchboard.chat.web;

import dev.switchboard.bridge.engine.Actor;

/**
 * Who the web chat's user is: the identity a fronting proxy asserts in {@code X-Forwarded-User} /
 * {@code X-Forwarded-Email} when {@code trustForwardedUser} is on (only safe behind such a proxy),
 * else {@code defaultUser}.
 */
public record WebChatSettings(boolean trustForwardedUser, Actor defaultUser) {

    public static final WebChatSettings DEFAULTS = new WebChatSettings(false, new Actor("local", "Local User", null));
}
