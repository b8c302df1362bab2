package dev.switchboard.chat.web;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;

/**
 * The names and the origin the web chat answers to (issue 8, DNS rebinding and cross-site requests). A
 * request's {@code Host} must be the public URL's host, or a loopback name; without a public URL the listen
 * host counts, and a wildcard listen (0.0.0.0, ::) accepts any Host: {@code publicUrl} is what turns the
 * check on there. A POST's {@code Origin} must be the origin the page was loaded from: the public URL's,
 * or the request's own scheme, host and port.
 */
final class OwnOrigin {

    private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "::1");

    /** the one non-loopback host name accepted, lower case; null: any (wildcard listen, no public URL) */
    private final String host;
    /** the public URL's origin, normalised; null when none is configured */
    private final String publicOrigin;

    OwnOrigin(String publicUrl, String listenHost) {
        if (publicUrl != null) {
            URI u = URI.create(publicUrl);
            this.host = name(u.getHost());
            this.publicOrigin = origin(u.getScheme(), u.getHost(), u.getPort());
        } else {
            String listen = listenHost == null ? "" : name(listenHost);
            this.host = listen.isEmpty() || listen.equals("0.0.0.0") || listen.equals("::") || listen.equals("*")
                    ? null : listen;
            this.publicOrigin = null;
        }
    }

    /** True when the request's Host is one of ours (421 otherwise). */
    boolean hostAllowed(HttpServerRequest request) {
        if (host == null) {
            return true;
        }
        HostAndPort authority = request.authority();
        if (authority == null) {
            return false;
        }
        String name = name(authority.host());
        return name.equals(host) || LOOPBACK_NAMES.contains(name);
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
