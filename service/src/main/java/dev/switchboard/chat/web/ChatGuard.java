package dev.switchboard.chat.web;

import static dev.switchboard.http.JsonHttp.error;

import dev.switchboard.bridge.engine.Actor;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;

/**
 * What every chat API request passes before its handler, and before a POST's body is read: an identity (401), then
 * for a POST our own page (403) and JSON (415). The Host (421) was checked before any route.
 */
final class ChatGuard {

    private static final String CALLER = "webchat.caller";

    private final WebIdentity identity;
    private final OwnOrigin own;
    /** anonymous callers are the default user: a loopback-only server, or one the operator declared insecure */
    private final boolean open;

    ChatGuard(WebIdentity identity, OwnOrigin own, boolean open) {
        this.identity = identity;
        this.own = own;
        this.open = open;
    }

    void handle(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        HttpServerResponse response = ctx.response();
        Optional<WebIdentity.Caller> caller = identity.of(request);
        if (caller.isEmpty()) {
            response.putHeader("WWW-Authenticate", "Bearer realm=\"switchboard\"");
            error(response, 401, "sign in: this chat needs an API key (Authorization: Bearer <key>) or a signed-in "
                    + "user from the proxy in front of it", null);
            return;
        }
        if (request.method() == HttpMethod.POST) {
            String refusal = crossSite(request, caller.get());
            if (refusal != null) {
                error(response, 403, refusal, null);
                return;
            }
            String type = request.getHeader("Content-Type");
            if (type == null || !type.split(";", 2)[0].trim().equalsIgnoreCase("application/json")) {
                error(response, 415, "Content-Type: application/json is required", "Content-Type");
                return;
            }
        }
        ctx.put(CALLER, caller.get().actor());
        ctx.next();
    }

    /** The caller the guard let in. */
    static Actor user(RoutingContext ctx) {
        return ctx.get(CALLER);
    }

    /** Why a POST may have come from another site's page; null when it comes from ours. */
    private String crossSite(HttpServerRequest request, WebIdentity.Caller caller) {
        String origin = request.getHeader("Origin");
        if (origin != null) {
            return own.sameOrigin(request, origin, identity.fromProxy(request)) ? null
                    : "cross-site request refused: Origin is not this chat's";
        }
        String site = request.getHeader("Sec-Fetch-Site");
        if (site != null) {
            return site.trim().equalsIgnoreCase("same-origin") ? null : "cross-site request refused: Sec-Fetch-Site " + site.trim();
        }
        // no browser sends a POST with neither header; a script with a key or on this machine may
        return caller.byKey() || open ? null
                : "a POST needs an Origin or Sec-Fetch-Site header, or an API key";
    }
}
