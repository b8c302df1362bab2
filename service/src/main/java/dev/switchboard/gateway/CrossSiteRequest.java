package dev.switchboard.gateway;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * What a browser says about where a request came from (issue 22): {@code GET /a2a/{id}/stream} has no body and
 * needs no header, so any page can make one ({@code <img>}, {@code fetch(…, {mode: "no-cors"})},
 * {@code EventSource}), and on a server without API keys it would start a call to the agent. A POST is safe from
 * such pages because its {@code Content-Type: application/json} needs a CORS preflight the gateway never grants.
 * A browser marks the GET: {@code Sec-Fetch-Site} (every current browser) is {@code cross-site} or
 * {@code same-site} — another port of localhost is same-site —, and a CORS-mode request ({@code EventSource},
 * {@code fetch}) carries an {@code Origin}, which a browser sends on a GET only when it is not the page's own.
 * Programs (curl, SDKs, KubeMQ clients) send neither.
 */
public final class CrossSiteRequest {

    private CrossSiteRequest() {}

    /** Why the request came from another site's page, or null when nothing says so. */
    public static String refusal(HttpServerRequest request) {
        String site = request.getHeader("Sec-Fetch-Site");
        if (site != null) {
            String s = site.trim();
            if (!s.equalsIgnoreCase("same-origin") && !s.equalsIgnoreCase("none")) {
                return "cross-site request refused: Sec-Fetch-Site is " + (s.equalsIgnoreCase("same-site") ? "same-site"
                        : "cross-site") + "; a page may open a stream only from this server's own origin";
            }
        }
        String origin = request.getHeader("Origin");
        if (origin != null && !ours(origin, request.authority())) {
            return "cross-site request refused: Origin is not this server's; a page may open a stream only from"
                    + " this server's own origin";
        }
        return null;
    }

    /** An Origin naming the host and port the request was sent to ({@code null}, sandboxed pages', never is). */
    private static boolean ours(String origin, HostAndPort authority) {
        if (authority == null) {
            return false;
        }
        try {
            URI u = new URI(origin.trim());
            if (u.getScheme() == null || u.getHost() == null) {
                return false;
            }
            int port = u.getPort() > 0 ? u.getPort() : u.getScheme().equalsIgnoreCase("https") ? 443 : 80;
            int asked = authority.port() > 0 ? authority.port() : port;
            String host = u.getHost().startsWith("[") ? u.getHost().substring(1, u.getHost().length() - 1) : u.getHost();
            String named = authority.host().startsWith("[") ? authority.host().substring(1, authority.host().length() - 1)
                    : authority.host();
            return host.equalsIgnoreCase(named) && port == asked;
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
