package dev.switchboard.chat.web;

import dev.switchboard.bridge.engine.Actor;
import dev.switchboard.net.CidrBlock;
import java.util.List;

/**
 * Who the web chat's user is. A fronting proxy's {@code X-Forwarded-User} / {@code X-Forwarded-Email} are
 * believed only from {@code trustedProxies}; {@code trustForwardedUser} without proxies means a proxy on this
 * machine (loopback). Otherwise, on a loopback-only server, {@code defaultUser}; on any other, a caller
 * needs an API key.
 */
public record WebChatSettings(boolean trustForwardedUser, Actor defaultUser, List<CidrBlock> trustedProxies) {

    public static final WebChatSettings DEFAULTS = new WebChatSettings(false, new Actor("local", "Local User", null), List.of());

    public WebChatSettings {
        trustedProxies = List.copyOf(trustedProxies);
    }

    /** The addresses whose forwarded-user headers are believed; empty: none. */
    public List<CidrBlock> proxies() {
        if (!trustedProxies.isEmpty()) {
            return trustedProxies;
        }
        return trustForwardedUser ? CidrBlock.LOOPBACK : List.of();
    }
}
