package dev.switchboard.chat.web;

import io.vertx.core.MultiMap;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;

/**
 * No other site may show the web chat in a frame (issue 22, L4: a decoy page over the chat would have its visitor
 * click, or type, into the chat underneath). Said in both headers: {@code X-Frame-Options} for older browsers, CSP's
 * {@code frame-ancestors} for the rest, merged into a policy the response already carries. Set as the headers are
 * written, so that it holds for every answer: the page, the API, refusals and errors alike.
 */
final class NoFraming {

    static final String CSP = "Content-Security-Policy";
    static final String FRAME_ANCESTORS = "frame-ancestors 'none'";

    private NoFraming() {}

    /** The response to this request will say so, whatever else writes its headers. */
    static void on(RoutingContext ctx) {
        ctx.addHeadersEndHandler(v -> apply(ctx.response().headers()));
    }

    static void apply(MultiMap headers) {
        headers.set("X-Frame-Options", "DENY");
        String policy = headers.get(CSP);
        if (policy == null || policy.isBlank()) {
            headers.set(CSP, FRAME_ANCESTORS);
        } else if (!policy.toLowerCase(Locale.ROOT).contains("frame-ancestors")) {
            headers.set(CSP, policy.strip().replaceAll(";+$", "") + "; " + FRAME_ANCESTORS);
        } else {
            // the policy names its own frame ancestors: ours replaces them (none may frame the chat)
            headers.set(CSP, policy.replaceAll("(?i)frame-ancestors[^;]*", FRAME_ANCESTORS));
        }
    }
}
