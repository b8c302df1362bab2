package dev.switchboard.gateway;

import io.vertx.core.http.RequestOptions;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An agent URL taken apart once, so a relayed call does not parse it again: scheme, the host to connect to (an IPv6
 * literal without its brackets), port, path (as {@link RequestOptions#setAbsoluteURI} reads them), and the
 * {@code Host} header's value (the port left out when it is the scheme's default). The caller's query string is
 * appended as it came.
 */
record UpstreamTarget(boolean ssl, String connectHost, int port, String path, String authority) {

    /** Bounded: agent URLs are few, but registrations come and go. */
    private static final int MAX = 4096;
    private static final ConcurrentHashMap<String, UpstreamTarget> CACHE = new ConcurrentHashMap<>();

    static UpstreamTarget of(String url) {
        UpstreamTarget t = CACHE.get(url);
        if (t == null) {
            RequestOptions parsed = new RequestOptions().setAbsoluteURI(url);
            boolean ssl = Boolean.TRUE.equals(parsed.isSsl());
            String host = parsed.getHost();
            String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
            String named = bare.indexOf(':') >= 0 ? "[" + bare + "]" : bare;
            int port = parsed.getPort();
            String authority = port == (ssl ? 443 : 80) ? named : named + ":" + port;
            t = new UpstreamTarget(ssl, bare, port, parsed.getURI(), authority);
            if (CACHE.size() >= MAX) {
                CACHE.clear();
            }
            CACHE.put(url, t);
        }
        return t;
    }

    /** The request URI: the agent's path, and the caller's query string when there is one. */
    String uri(String query) {
        if (query == null || query.isEmpty()) {
            return path;
        }
        return path + (path.contains("?") ? "&" : "?") + query;
    }
}
