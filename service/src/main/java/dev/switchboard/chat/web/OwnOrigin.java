package dev.switchboard.chat.web;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * The origin the web chat answers to (issue 8, cross-site requests). A POST's {@code Origin} must be the origin the
 * page was loaded from: the public URL's, or the request's own scheme, host and port. The request's {@code Host}
 * (DNS rebinding) is checked for every route before the router, by {@code HostCheck}.
 */
final class OwnOrigin {

    /** the public URL's origin, normalised; null when none is configured */
    private final String publicOrigin;

    OwnOrigin(String publicUrl) {
        if (publicUrl != null) {
            URI u = URI.create(publicUrl);
            this.publicOrigin = origin(u.getScheme(), u.getHost(), u.getPort());
        } else {
            this.publicOrigin = null;
        }
    }

    /**
     * True when {@code origin} (an {@code Origin} header) is the page's own: the public URL's origin or the
     * request's scheme (a trusted proxy's {@code X-Forwarded-Proto}, if given), host and port.
     */
    boolean sameOrigin(HttpServerRequest request, String origin, boolean fromProxy) {
        String given;
        try {
            URI u = new URI(origin.trim());
            if (u.getScheme() == null || u.getHost() == null) {
                return false; // "null" (sandboxed frames, files) and garbage
            }
            given = origin(u.getScheme(), u.getHost(), u.getPort());
        } catch (URISyntaxException e) {
            return false;
        }
        if (given.equals(publicOrigin)) {
            return true;
        }
        HostAndPort authority = request.authority();
        if (authority == null) {
            return false;
        }
        String scheme = request.isSSL() ? "https" : "http";
        String forwarded = fromProxy ? request.getHeader("X-Forwarded-Proto") : null;
        if (forwarded != null && (forwarded.equalsIgnoreCase("https") || forwarded.equalsIgnoreCase("http"))) {
            scheme = forwarded.toLowerCase(Locale.ROOT);
        }
        return given.equals(origin(scheme, authority.host(), authority.port()));
    }

    /** scheme://host:port with the default port written out, lower case, IPv6 without brackets. */
    private static String origin(String scheme, String host, int port) {
        String s = scheme.toLowerCase(Locale.ROOT);
        int p = port > 0 ? port : s.equals("https") ? 443 : 80;
        return s + "://" + name(host) + ":" + p;
    }

    private static String name(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }
}
