package dev.switchboard.fuzz;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * Bugs the fuzzer found that are not fixed yet, each written up in the fuzz report (input, what
 * happened, the line that causes it, the proposed fix). A matching answer or ERROR log is counted and
 * printed but does not fail the run. Remove an entry when its fix lands: the fuzzer then guards the fix.
 */
final class KnownFindings {

    /** A wrong answer already known. */
    record KnownAnswer(String name, BiPredicate<Inputs.Input, Reply> matches) {}

    /** An ERROR log already known. */
    record KnownLog(String name, Predicate<ILoggingEvent> matches) {}

    static final List<KnownAnswer> ANSWERS = List.of(
            // F1: RegistryRoutes.list (RegistryRoutes.java:146/150) calls request.getParam, which throws
            // IllegalArgumentException on a malformed percent-escape in the query: Vert.x Web answers 500
            new KnownAnswer("F1 GET /agents with a malformed query escape answers 500", (in, out) ->
                    out.status() == 500 && in.target() == Inputs.Target.REGISTRY && "GET".equals(in.method())
                            && in.path().startsWith("/agents?") && in.path().contains("%")),
            // F2: RegistryRoutes.jsonBody (RegistryRoutes.java:237) and WebChatRoutes.message (WebChatRoutes.java:244)
            // read the body with RequestBody.asString(), which decodes with the Content-Type's charset and throws on
            // `charset="` (StringIndexOutOfBoundsException in Vert.x Web's HeaderParser) and on an unknown charset
            // (UnsupportedCharsetException): 500
            new KnownAnswer("F2 a registry or chat POST with an unparseable charset answers 500", (in, out) ->
                    out.status() == 500 && (in.target() == Inputs.Target.REGISTRY || in.target() == Inputs.Target.CHAT)
                            && in.header("Content-Type") != null && in.header("Content-Type").contains("charset=")),
            // F3: a request line with an HTTP version other than 1.0/1.1 is answered 501 by Vert.x core itself,
            // before any Switchboard code runs (RFC 9110 would have 505; either way a 5xx)
            new KnownAnswer("F3 an unknown HTTP version in the request line answers 501", (in, out) ->
                    out.status() == 501 && in.target() == Inputs.Target.RAW && in.what().equals("odd HTTP version")),
            // F6: POST /agents/register accepts a URL whose port is out of range (http://127.0.0.1:99999/:
            // RegistrationRequest.checkUrl only asks java.net.URI, which allows any port). Every later
            // HttpClient.request for that agent throws IllegalArgumentException synchronously: GET
            // /.well-known/agent-card.json answers 500 to everyone while the registration lives (CardRoutes.fetch,
            // CardRoutes.java:143, reached for every agent without skills), the agent's own card too, and POST
            // /a2a/{id} is never answered until the agent's timeout (GatewayCall.start, GatewayCall.java:94: the
            // exception escapes dispatch, the slot stays taken)
            new KnownAnswer("F6 the platform or agent card answers 500 while an agent with port 99999 is registered",
                    (in, out) -> out.status() == 500 && in.path().endsWith("/.well-known/agent-card.json")),
            new KnownAnswer("F6 POST /a2a/{id} to an agent registered with port 99999 is never answered",
                    (in, out) -> out.status() < 0 && in.target() == Inputs.Target.GATEWAY && in.path().startsWith("/a2a/fz-")));

    static final List<KnownLog> LOGS = List.of(
            // F4: the router has no error handler, so Vert.x Web logs every failure it answers itself at ERROR
            // ("Unhandled exception in router", RoutingContextImplBase.unhandledFailure), 4xx included:
            new KnownLog("F4a body over the BodyHandler limit (413) logged at ERROR", e ->
                    router(e) && e.getThrowableProxy() == null),
            new KnownLog("F4b missing or unparseable Host header (400) logged at ERROR", e ->
                    router(e) && thrown(e, "io.vertx.core.VertxException", "'Host' header is required")),
            new KnownLog("F4c malformed percent-escape in the path (400) logged at ERROR", e ->
                    router(e) && thrown(e, "java.lang.IllegalArgumentException", "escape character")),
            new KnownLog("F4d malformed chunked framing or trailers (the request fails) logged at ERROR", e ->
                    router(e) && (thrown(e, "java.lang.NumberFormatException", "")
                            || thrown(e, "io.netty.handler.codec.http.TooLongHttpHeaderException", "")
                            || thrown(e, "io.netty.handler.codec.http.multipart.HttpPostRequestDecoder$TooLongFormFieldException", ""))),
            // F5: under concurrency, with agents that answer malformed, oversized, dropped or hanging SSE streams, the
            // gateway resets upstream requests (GatewayCall.resetUpstream, GatewayCall.java:392, reached from tooLarge,
            // idle and fail) that have no exception handler; the reset's failure is then reported on the request
            // and Vert.x logs it at ERROR
            new KnownLog("F5 gateway's reset of an upstream request logged at ERROR (Stream reset: 0)", e ->
                    e.getLoggerName().equals("io.vertx.core.http.impl.HttpClientRequestImpl")
                            && String.valueOf(e.getFormattedMessage()).startsWith("Stream reset")),
            new KnownLog("F4e a form Content-Type on a JSON route: the BodyHandler's form decoder fails, logged at ERROR", e ->
                    router(e) && (thrown(e, "io.netty.handler.codec.http.multipart.HttpPostRequestDecoder$ErrorDataDecoderException", "")
                            || thrown(e, "java.lang.IllegalArgumentException", "Param 'name' must not be empty"))),
            new KnownLog("F6 (log) an agent registered with port 99999", e ->
                    (router(e) || e.getLoggerName().equals("io.vertx.core.impl.ContextImpl"))
                            && thrown(e, "java.lang.IllegalArgumentException", "port p must be in range")),
            // F7: at shutdown, a bridge call already queued with runOnContext (A2aAgentClient.unary/onContext,
            // A2aAgentClient.java:166/185) runs after BridgeService.close closed the client (BridgeService.java:76);
            // HttpClient.request throws IllegalStateException synchronously in Exchange.start (Exchange.java:54),
            // which escapes as "Unhandled exception" (and the call's promise is never completed)
            new KnownLog("F7 a bridge call started after the shutdown closed its client logged at ERROR", e ->
                    e.getLoggerName().equals("io.vertx.core.impl.ContextImpl")
                            && thrown(e, "java.lang.IllegalStateException", "Client is closed")),
            // the log lines of F1 and F2
            new KnownLog("F1 (log) malformed query escape", e ->
                    router(e) && thrown(e, "java.lang.IllegalArgumentException", "invalid hex byte")),
            new KnownLog("F2 (log) unparseable charset", e ->
                    router(e) && (thrown(e, "java.lang.StringIndexOutOfBoundsException", "")
                            || thrown(e, "java.nio.charset.UnsupportedCharsetException", ""))));

    private KnownFindings() {}

    private static boolean router(ILoggingEvent e) {
        return e.getLoggerName().equals("io.vertx.ext.web.RoutingContext")
                && "Unhandled exception in router".equals(e.getFormattedMessage());
    }

    private static boolean thrown(ILoggingEvent e, String className, String messagePart) {
        IThrowableProxy t = e.getThrowableProxy();
        return t != null && t.getClassName().equals(className) && String.valueOf(t.getMessage()).contains(messagePart);
    }

    static String answer(Inputs.Input in, Reply out) {
        return ANSWERS.stream().filter(k -> k.matches().test(in, out)).map(KnownAnswer::name).findFirst().orElse(null);
    }

    static String log(ILoggingEvent e) {
        return LOGS.stream().filter(k -> k.matches().test(e)).map(KnownLog::name).findFirst().orElse(null);
    }
}
