package dev.switchboard.bridge.it;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.bridge.support.ChatApi;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A plain HTTP relay in front of a test agent that keeps what the agent answered (the testkit's
 * Recorder keeps only what it received), with when each exchange started and ended. Lets a test see
 * the agent's own taskIds and contextIds, and order sends against the end of earlier streams.
 */
final class AgentTap {

    /** One relayed exchange; {@code responseBody} is the SSE text for a stream. */
    record Exchange(String method, String path, String requestBody, int status, String responseBody, Instant startedAt,
            Instant endedAt) {

        JsonNode request() {
            return requestBody.isBlank() ? ChatApi.JSON.missingNode() : ChatApi.read(requestBody);
        }

        String messageId() {
            return request().path("params").path("message").path("messageId").asText(null);
        }

        /** Every JSON-RPC response in the body: one for a plain reply, one per {@code data:} line for a stream. */
        List<JsonNode> responses() {
            List<JsonNode> out = new ArrayList<>();
            if (responseBody.startsWith("{")) {
                out.add(ChatApi.read(responseBody));
                return out;
            }
            for (String line : responseBody.split("\n")) {
                if (line.startsWith("data:")) {
                    out.add(ChatApi.read(line.substring(5).strip()));
                }
            }
            return out;
        }

        /** The first value of {@code field} anywhere in the replies (e.g. the agent's contextId). */
        Optional<String> first(String field) {
            for (JsonNode r : responses()) {
                JsonNode found = r.path("result").findValue(field);
                if (found != null && found.isTextual()) {
                    return Optional.of(found.asText());
                }
            }
            return Optional.empty();
        }
    }

    private static final Set<String> HOP_BY_HOP = Set.of("host", "content-length", "transfer-encoding", "connection");

    private final HttpClientAgent client;
    private final List<Exchange> exchanges = new ArrayList<>();
    private HttpServer server;

    private AgentTap(HttpClientAgent client) {
        this.client = client;
    }

    /** A relay on an ephemeral port of 127.0.0.1 to the agent listening on {@code targetPort}. */
    static AgentTap start(Vertx vertx, int targetPort) {
        AgentTap tap = new AgentTap(vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true)));
        tap.server = vertx.createHttpServer()
                .requestHandler(req -> tap.relay(req, targetPort))
                .listen(0, "127.0.0.1")
                .await();
        return tap;
    }

    String url() {
        return "http://127.0.0.1:" + server.actualPort() + "/";
    }

    synchronized List<Exchange> exchanges() {
        return List.copyOf(exchanges);
    }

    /** The sends (any version) carrying this messageId, in arrival order. */
    List<Exchange> sendsOf(String messageId) {
        return exchanges().stream().filter(e -> messageId.equals(e.messageId())).toList();
    }

    private synchronized void add(Exchange e) {
        exchanges.add(e);
    }

    private void relay(HttpServerRequest req, int targetPort) {
        Instant started = Instant.now();
        req.body().onSuccess(body -> {
            MultiMap headers = MultiMap.caseInsensitiveMultiMap();
            req.headers().forEach((k, v) -> {
                if (!HOP_BY_HOP.contains(k.toLowerCase(java.util.Locale.ROOT))) {
                    headers.add(k, v);
                }
            });
            RequestOptions options = new RequestOptions().setMethod(req.method()).setHost("127.0.0.1").setPort(targetPort)
                    .setURI(req.uri()).setHeaders(headers);
            Future<HttpClientRequest> outbound = client.request(options);
            outbound.compose(out -> {
                // the caller hung up (a cut stream): hang up on the agent too
                req.connection().closeHandler(v -> out.reset());
                return out.send(body);
            }).onSuccess(resp -> {
                var response = req.response().setStatusCode(resp.statusCode()).setChunked(true);
                resp.headers().forEach((k, v) -> {
                    if (!HOP_BY_HOP.contains(k.toLowerCase(java.util.Locale.ROOT))) {
                        response.headers().add(k, v);
                    }
                });
                Buffer seen = Buffer.buffer();
                resp.handler(chunk -> {
                    seen.appendBuffer(chunk);
                    if (!response.closed()) {
                        response.write(chunk);
                    }
                });
                resp.exceptionHandler(e -> response.reset());
                resp.endHandler(v -> {
                    add(new Exchange(req.method().name(), req.path(), body.toString(), resp.statusCode(), seen.toString(),
                            started, Instant.now()));
                    if (!response.closed()) {
                        response.end();
                    }
                });
            }).onFailure(e -> {
                if (!req.response().closed()) {
                    req.response().setStatusCode(502).end();
                }
            });
        });
    }

    void close() {
        server.close().await();
        client.close().await();
    }
}
