package dev.switchboard.tracing;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * {@code Server.spec.tracing}: where spans go, if anywhere. Tracing is off unless {@code otlpEndpoint} is set.
 *
 * @param otlpEndpoint the OTLP/HTTP endpoint of a collector, e.g. {@code http://otel-collector:4318} (spans are sent
 *     to its {@code /v1/traces}); null: tracing is off
 * @param serviceName the {@code service.name} of every span (default {@code switchboard})
 * @param samplingRatio the share of new traces that are recorded, 0 to 1 (default 1); a trace continued from a
 *     caller follows the caller's sampled flag
 */
public record TracingSettings(String otlpEndpoint, String serviceName, double samplingRatio) {

    public static final String DEFAULT_SERVICE_NAME = "switchboard";
    public static final TracingSettings OFF = new TracingSettings(null, DEFAULT_SERVICE_NAME, 1.0);
    private static final String TRACES_PATH = "/v1/traces";

    public TracingSettings {
        if (otlpEndpoint != null) {
            otlpEndpoint = endpoint(otlpEndpoint);
        }
        serviceName = serviceName == null ? DEFAULT_SERVICE_NAME : serviceName(serviceName);
        samplingRatio = samplingRatio(samplingRatio);
    }

    public boolean enabled() {
        return otlpEndpoint != null;
    }

    /**
     * The URL spans are posted to: the endpoint plus {@code /v1/traces}, as OTEL_EXPORTER_OTLP_ENDPOINT is read,
     * unless the endpoint names that path already.
     */
    public String tracesUrl() {
        if (otlpEndpoint == null) {
            return null;
        }
        String base = otlpEndpoint.replaceAll("/+$", "");
        return base.endsWith(TRACES_PATH) ? base : base + TRACES_PATH;
    }

    /** An absolute http or https URL with a host and no credentials, query or fragment. */
    public static String endpoint(String url) {
        String text = url.strip();
        URI u;
        try {
            u = new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("'" + text + "' is not a URL: " + e.getReason());
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!u.isAbsolute() || u.getHost() == null || !(scheme.equals("http") || scheme.equals("https"))) {
            throw new IllegalArgumentException("'" + text + "' must be an absolute http or https URL of an OTLP/HTTP "
                    + "collector, e.g. http://otel-collector:4318");
        }
        if (u.getRawUserInfo() != null || u.getRawQuery() != null || u.getRawFragment() != null) {
            // a password in the URL would be logged by whoever prints the configuration
            throw new IllegalArgumentException("'" + u.getScheme() + "://" + u.getHost()
                    + "…' must be scheme://host[:port][/path] with no user, query or fragment");
        }
        return text;
    }

    public static String serviceName(String name) {
        String n = name.strip();
        if (n.isEmpty() || n.length() > 255) {
            throw new IllegalArgumentException("must be 1 to 255 characters");
        }
        return n;
    }

    public static double samplingRatio(double ratio) {
        if (!(ratio >= 0 && ratio <= 1)) {
            throw new IllegalArgumentException("must be a number from 0 to 1, got " + ratio);
        }
        return ratio;
    }
}
