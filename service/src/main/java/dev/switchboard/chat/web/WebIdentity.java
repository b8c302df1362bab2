package dev.switchboard.chat.web;

import dev.switchboard.auth.CallerAuth;
import dev.switchboard.bridge.engine.Actor;
import dev.switchboard.net.Addresses;
import dev.switchboard.net.CidrBlock;
import io.vertx.core.http.HttpServerRequest;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * Who is writing in the web chat (issue 8). In order: a fronting proxy's {@code X-Forwarded-User} /
 * {@code X-Forwarded-Email}, believed only when the connection comes from one of {@code proxies}; an API key
 * ({@code Authorization: Bearer}, the actor is the key's name); on an open server (loopback-only, or declared
 * insecure by its operator), the configured default user. Anyone else is nobody: the caller answers 401.
 */
final class WebIdentity {

    /** A caller the chat knows; {@code byKey} when an API key said so (a key cannot be sent cross-site). */
    record Caller(Actor actor, boolean byKey) {}

    private final List<CidrBlock> proxies;
    private final CallerAuth keys;
    private final Actor defaultUser;
    private final boolean open;

    WebIdentity(WebChatSettings settings, CallerAuth keys, boolean open) {
        this.proxies = settings.proxies();
        this.keys = keys;
        this.defaultUser = settings.defaultUser();
        this.open = open;
    }

    Optional<Caller> of(HttpServerRequest request) {
        if (fromProxy(request)) {
            String user = request.getHeader("X-Forwarded-User");
            if (user != null && !user.isBlank()) {
                String email = request.getHeader("X-Forwarded-Email");
                return Optional.of(new Caller(new Actor(user.trim(), user.trim(),
                        email == null || email.isBlank() ? null : email.trim()), false));
            }
        }
        if (CallerAuth.bearer(request.getHeader("Authorization")) != null && keys.required()) {
            // a key that does not match is refused even where the default user would do: it is a mistake to show
            // API keys only: the web chat does not take JWTs (docs/identity.md)
            return keys.apiKeyCaller(request).map(c -> new Caller(new Actor(c.id(), c.id(), null), true));
        }
        return open ? Optional.of(new Caller(defaultUser, false)) : Optional.empty();
    }

    /** True when the connection comes from a trusted proxy, whose forwarded headers are believed. */
    boolean fromProxy(HttpServerRequest request) {
        if (proxies.isEmpty() || request.remoteAddress() == null) {
            return false;
        }
        Optional<InetAddress> remote = Addresses.literal(request.remoteAddress().hostAddress());
        return remote.isPresent() && CidrBlock.anyContains(proxies, remote.get());
    }
}
