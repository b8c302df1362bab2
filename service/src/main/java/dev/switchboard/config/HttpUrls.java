package dev.switchboard.config;

import java.net.URI;

/** The URL forms the configuration accepts, checked where a field holds one. */
final class HttpUrls {

    private HttpUrls() {}

    /** An absolute http or https URL with a host and, if any, a port in 1..65535. */
    static void check(DocumentLocation doc, String field, String url) {
        try {
            URI u = new URI(url);
            if (!u.isAbsolute() || u.getHost() == null
                    || !("http".equalsIgnoreCase(u.getScheme()) || "https".equalsIgnoreCase(u.getScheme()))) {
                throw doc.error(field, "'" + url + "' must be an absolute http or https URL");
            }
            if (u.getPort() == 0 || u.getPort() > 65535) {
                throw doc.error(field, "'" + url + "' has a port outside 1..65535");
            }
        } catch (java.net.URISyntaxException e) {
            throw doc.error(field, "'" + url + "' is not a URL: " + e.getReason());
        }
    }

    /** scheme://host[:port] with no path, query, fragment or userinfo; a trailing slash is dropped. */
    static String origin(DocumentLocation doc, String field, String url) {
        try {
            URI u = new URI(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
            if (!u.isAbsolute() || u.getHost() == null
                    || !("http".equalsIgnoreCase(u.getScheme()) || "https".equalsIgnoreCase(u.getScheme()))) {
                throw doc.error(field, "'" + url + "' must be an absolute http or https URL");
            }
            if (u.getRawUserInfo() != null || u.getRawQuery() != null || u.getRawFragment() != null
                    || !(u.getRawPath() == null || u.getRawPath().isEmpty())) {
                throw doc.error(field, "'" + url + "' must be scheme://host[:port] only, e.g. https://switchboard.example.com");
            }
            return u.toString();
        } catch (java.net.URISyntaxException e) {
            throw doc.error(field, "'" + url + "' is not a URL: " + e.getReason());
        }
    }
}
