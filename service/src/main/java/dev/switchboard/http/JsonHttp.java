package dev.switchboard.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * JSON over HTTP for our own APIs (the registry's, the web chat's): a bounded body read as UTF-8, answers as
 * JSON, errors as {@code {"error": "...", "field": "..."}}, blocking work on a worker thread.
 */
public final class JsonHttp {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonHttp() {}

    /** Buffers a request body of at most {@code maxBytes}; a larger one fails the route with 413. */
    public static BodyHandler bodyOf(long maxBytes) {
        return BodyHandler.create(false).setBodyLimit(maxBytes);
    }

    /**
     * The request's JSON body, or null after answering 400: {@code blankMessage} for an empty or blank body,
     * "body: not valid JSON" for one that does not parse. JSON is UTF-8 (RFC 8259): the bytes are read as such,
     * whatever charset the Content-Type claims (an unknown one must not fail the request).
     */
    public static JsonNode body(RoutingContext ctx, String blankMessage) {
        String raw = ctx.body() == null || ctx.body().buffer() == null ? ""
                : ctx.body().buffer().toString(StandardCharsets.UTF_8);
        if (raw.isBlank()) {
            error(ctx.response(), 400, blankMessage, "body");
            return null;
        }
        try {
            return JSON.readTree(raw);
        } catch (IOException e) {
            error(ctx.response(), 400, "body: not valid JSON", "body");
            return null;
        }
    }

    /** Answers with a JSON body, unless the response was already ended or its connection closed. */
    public static void json(HttpServerResponse response, int status, JsonNode body) {
        if (!response.ended() && !response.closed()) {
            response.setStatusCode(status).putHeader("Content-Type", "application/json").end(body.toString());
        }
    }

    /** Answers {@code {"error": message, "field": field}}; no field when it is null. */
    public static void error(HttpServerResponse response, int status, String message, String field) {
        json(response, status, errorBody(message, field));
    }

    public static ObjectNode errorBody(String message, String field) {
        ObjectNode n = JSON.createObjectNode();
        n.put("error", message);
        if (field != null) {
            n.put("field", field);
        }
        return n;
    }

    /** Runs {@code work} on a worker thread, then {@code then} with its result or {@code failed} with its failure. */
    public static <T> void blocking(Vertx vertx, Callable<T> work, Consumer<T> then, Consumer<Throwable> failed) {
        vertx.executeBlocking(work).onComplete(ar -> {
            if (ar.succeeded()) {
                then.accept(ar.result());
            } else {
                failed.accept(ar.cause());
            }
        });
    }

    /**
     * Failures of decoding what the caller sent (a malformed chunk size, a form field, a frame too long), or of a
     * body the caller abandoned by closing its connection, which Vert.x reports as 500s: the caller's, a 400.
     */
    public static boolean callersFault(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            // a caller that closed its connection before its body had arrived: nobody is left to answer
            if (c instanceof DecoderException || c instanceof TooLongFrameException
                    || c instanceof io.vertx.core.http.HttpClosedException
                    || c.getClass().getName().startsWith("io.netty.handler.codec.")) {
                return true;
            }
            // a chunk size or a form field Vert.x or Netty could not read; the same exception thrown by our own
            // code is a bug of ours and stays a 500
            if ((c instanceof IllegalArgumentException) && thrownByVertxOrNetty(c)) {
                return true;
            }
        }
        return false;
    }

    private static boolean thrownByVertxOrNetty(Throwable t) {
        for (StackTraceElement frame : t.getStackTrace()) {
            String where = frame.getClassName();
            if (!where.startsWith("java.")) { // the first caller outside the JDK decides (Integer.parseInt says nothing)
                return where.startsWith("io.netty.") || where.startsWith("io.vertx.");
            }
        }
        return false;
    }
}
