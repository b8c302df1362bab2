package dev.switchboard.gateway;

import io.vertx.core.http.RequestOptions;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An agent URL taken apart once (scheme, host, port, path), so a relayed call does not parse it again: the
 * pieces are what {@link RequestOptions#setAbsoluteURI} makes of it. The caller's query string is appended as it
 * came, as before.
 */
record UpstreamTarget(Boolean ssl, String host, Integer port, String path) {

    /** Bounded: agent URLs are few, but registrations come and go. */
    private static final int MAX = 4096;
    private static final ConcurrentHashMap<String, UpstreamTarget> CACHE = new ConcurrentHashMap<>();

    static UpstreamTarget of(String url) {
        UpstreamTarget t = CACHE.get(url);
        if (t == null) {
            RequestOptions parsed = new RequestOptions().setAbsoluteURI(url);
            t = new UpstreamTarget(parsed.isSsl(), parsed.getHost(), parsed.getPort(), parsed.getURI());
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
