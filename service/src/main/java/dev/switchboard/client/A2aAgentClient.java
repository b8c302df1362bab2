package dev.switchboard.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.CallFailure.HttpStatus;
import dev.switchboard.protocol.CallFailure.Malformed;
import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.protocol.Json;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.codec.CardCodec;
import dev.switchboard.protocol.codec.WireCodec;
import dev.switchboard.protocol.jsonrpc.JsonRpcCodec;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.ListTasksParams;
import dev.switchboard.protocol.model.ListTasksResult;
import dev.switchboard.protocol.model.SendMessageParams;
import dev.switchboard.protocol.model.SendMessageResult;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskQueryParams;
import dev.switchboard.protocol.sse.SseReader;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;

/**
 * The chat bridge's outbound A2A client: the card fetch and the JSON-RPC calls the agent contract
 * makes, in A2A 1.0 or 0.3 as the endpoint says, every outcome typed as a {@link CallFailure}.
 *
 * <p>Rules every call follows: it goes to {@link AgentEndpoint#url()} exactly as given (never to the
 * card's interface URLs); it carries the endpoint's headers plus Content-Type, Accept and, for 1.0
 * agents only, {@code A2A-Version: 1.0}; no redirect is followed; response headers must arrive within
 * {@code responseHeadersTimeout} (streams included) or the request is reset. Futures complete and
 * stream listeners are called on the Vert.x context that made the call. Header values are never
 * logged or put into failure details: they hold tokens.
 */
public final class A2aAgentClient {

    public static final Duration DEFAULT_RESPONSE_HEADERS_TIMEOUT = Duration.ofSeconds(30);
    /** The largest single SSE event, as a2a-js caps it. */
    public static final int MAX_EVENT_BYTES = SseReader.DEFAULT_MAX_EVENT_BYTES;
    /** The largest whole reply (a card, a task, a page of tasks with their history). */
    public static final int MAX_BODY_BYTES = 16 * 1024 * 1024;

    private static final String JSON = "application/json";
    private static final String EVENT_STREAM = "text/event-stream";
    private static final String VERSION_HEADER = "A2A-Version";

    private final Vertx vertx;
    private final HttpClientAgent client;
    private final boolean ownsClient;
    private final long timeoutMs;

    /** A client with its own HTTP client and the default 30 s response-headers timeout. */
    public A2aAgentClient(Vertx vertx) {
        this(vertx, DEFAULT_RESPONSE_HEADERS_TIMEOUT);
    }

    /** A client with its own HTTP client, closed by {@link #close()}. */
    public A2aAgentClient(Vertx vertx, Duration responseHeadersTimeout) {
        this(vertx, ownClient(vertx), true, responseHeadersTimeout);
    }

    /** A client over a shared HTTP client, which {@link #close()} leaves open. */
    public A2aAgentClient(Vertx vertx, HttpClientAgent client, Duration responseHeadersTimeout) {
        this(vertx, client, false, responseHeadersTimeout);
    }

    private A2aAgentClient(Vertx vertx, HttpClientAgent client, boolean ownsClient, Duration responseHeadersTimeout) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.client = Objects.requireNonNull(client, "client");
        this.ownsClient = ownsClient;
        Duration timeout = responseHeadersTimeout == null ? DEFAULT_RESPONSE_HEADERS_TIMEOUT : responseHeadersTimeout;
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("responseHeadersTimeout must be positive: " + timeout);
        }
        this.timeoutMs = timeout.toMillis();
    }

    private static HttpClientAgent ownClient(Vertx vertx) {
        return vertx.httpClientBuilder()
                .with(new HttpClientOptions().setKeepAlive(true))
                // a stream holds its connection for its whole life, and a bridge follows many at once
                .with(new PoolOptions().setHttp1MaxSize(10_000).setMaxWaitQueueSize(-1))
                .build();
    }

    /**
     * GETs {@link AgentEndpoint#cardUrl()} with the endpoint's headers (the same identity as every
     * call) and {@code A2A-Version: 1.0}, which asks hybrid servers for the card 1.0 clients read.
     * Fails with a {@link CallException}: HttpStatus for any non-2xx, Malformed for a body that is not a card.
     */
    public Future<AgentCard> fetchCard(AgentEndpoint e) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        e.headers().forEach(headers::set);
        headers.set("Accept", JSON);
        headers.set(VERSION_HEADER, ProtocolVersion.V1_0.label());
        RequestOptions options = options(HttpMethod.GET, e.cardUrl(), headers, e);
        return unary(new Exchange(vertx, client, options, null, timeoutMs), A2aAgentClient::readCard);
    }

    /** SendStreamingMessage (1.0) or message/stream (0.3). */
    public StreamHandle sendStreaming(AgentEndpoint e, SendMessageParams params, StreamListener listener) {
        WireCodec codec = WireCodec.of(e.version());
        return stream(e, A2aMethod.SEND_STREAMING_MESSAGE, codec.writeSendParams(params), listener);
    }

    /** SendMessage (1.0) or message/send (0.3): for agents that do not stream. */
    public Future<SendMessageResult> sendMessage(AgentEndpoint e, SendMessageParams params) {
        WireCodec codec = WireCodec.of(e.version());
        return rpc(e, A2aMethod.SEND_MESSAGE, codec.writeSendParams(params), codec::readSendResult);
    }

    /** SubscribeToTask (1.0) or tasks/resubscribe (0.3). */
    public StreamHandle subscribe(AgentEndpoint e, String taskId, StreamListener listener) {
        WireCodec codec = WireCodec.of(e.version());
        return stream(e, A2aMethod.SUBSCRIBE_TO_TASK, codec.writeTaskQuery(TaskQueryParams.of(taskId)), listener);
    }

    /** GetTask (1.0) or tasks/get (0.3); {@code historyLength} null leaves the agent's default. */
    public Future<Task> getTask(AgentEndpoint e, String taskId, Integer historyLength) {
        WireCodec codec = WireCodec.of(e.version());
        JsonNode params = codec.writeTaskQuery(new TaskQueryParams(taskId, historyLength, null, null));
        return rpc(e, A2aMethod.GET_TASK, params, codec::readTask);
    }

    /** CancelTask (1.0) or tasks/cancel (0.3). */
    public Future<Task> cancelTask(AgentEndpoint e, String taskId) {
        WireCodec codec = WireCodec.of(e.version());
        return rpc(e, A2aMethod.CANCEL_TASK, codec.writeTaskQuery(TaskQueryParams.of(taskId)), codec::readTask);
    }

    /**
     * ListTasks, 1.0 only: 0.3 JSON-RPC has no such method and the contract never asks a 0.3 agent,
     * so a 0.3 endpoint gets a failed Future (IllegalStateException) and no request is made.
     */
    public Future<ListTasksResult> listTasks(AgentEndpoint e, ListTasksParams params) {
        if (e.version() != ProtocolVersion.V1_0) {
            return Future.failedFuture(new IllegalStateException(
                    "ListTasks is A2A 1.0 only; the agent at " + e.url() + " speaks " + e.version().label()));
        }
        WireCodec codec = WireCodec.of(e.version());
        return rpc(e, A2aMethod.LIST_TASKS, codec.writeListTasksParams(params), codec::readListTasksResult);
    }

    /** Closes the HTTP client when this client created it. */
    public Future<Void> close() {
        return ownsClient ? client.close() : Future.succeededFuture();
    }

    // ---- calls ----

    private <T> Future<T> rpc(AgentEndpoint e, A2aMethod method, JsonNode params, Function<JsonNode, T> reader) {
        Exchange exchange = new Exchange(vertx, client, options(HttpMethod.POST, e.url(), rpcHeaders(e, JSON), e),
                requestBody(e, method, params), timeoutMs);
        return unary(exchange, (status, body, retryAfter) -> readResult(RpcReply.of(status, body, retryAfter), reader));
    }

    private <T> Future<T> unary(Exchange exchange, UnaryCall.Interpretation<T> interpretation) {
        Context context = vertx.getOrCreateContext();
        Promise<T> promise = Promise.promise();
        onContext(context, () -> UnaryCall.run(exchange, MAX_BODY_BYTES, timeoutMs, interpretation, promise));
        return promise.future();
    }

    private StreamHandle stream(AgentEndpoint e, A2aMethod method, JsonNode params, StreamListener listener) {
        Objects.requireNonNull(listener, "listener");
        Exchange exchange = new Exchange(vertx, client, options(HttpMethod.POST, e.url(), rpcHeaders(e, EVENT_STREAM), e),
                requestBody(e, method, params), timeoutMs);
        Context context = vertx.getOrCreateContext();
        StreamCall call = new StreamCall(context, exchange, WireCodec.of(e.version()), listener, MAX_EVENT_BYTES,
                MAX_BODY_BYTES, timeoutMs);
        onContext(context, call::start);
        return call;
    }

    private static void onContext(Context context, Runnable action) {
        if (Vertx.currentContext() == context) {
            action.run();
        } else {
            context.runOnContext(v -> action.run());
        }
    }

    // ---- requests ----

    private RequestOptions options(HttpMethod method, String url, MultiMap headers, AgentEndpoint e) {
        RequestOptions options = new RequestOptions()
                .setMethod(method)
                .setAbsoluteURI(url)
                .setHeaders(headers)
                .setFollowRedirects(false)
                .setConnectTimeout(timeoutMs);
        if (e.connectTo() != null) {
            options.setServer(io.vertx.core.net.SocketAddress.inetSocketAddress(e.connectTo()));
        }
        return options;
    }

    /** The endpoint's headers, then ours, which win: an endpoint cannot turn a 0.3 call into a 1.0 one. */
    static MultiMap rpcHeaders(AgentEndpoint e, String accept) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        e.headers().forEach(headers::set);
        headers.set("Content-Type", JSON);
        headers.set("Accept", accept);
        if (e.version() == ProtocolVersion.V1_0) {
            headers.set(VERSION_HEADER, ProtocolVersion.V1_0.label());
        } else {
            // a 0.3 server reads a missing header as 0.3; any value would be a lie or a -32009
            headers.remove(VERSION_HEADER);
        }
        return headers;
    }

    private static Buffer requestBody(AgentEndpoint e, A2aMethod method, JsonNode params) {
        String name = method.nameIn(e.version()).orElseThrow(
                () -> new IllegalStateException(method + " does not exist in A2A " + e.version().label()));
        // a fresh id per call, so no reply can be mistaken for another call's
        return Buffer.buffer(JsonRpcCodec.request(TextNode.valueOf("sb-" + UUID.randomUUID()), name, params));
    }

    // ---- replies ----

    private static <T> T readResult(RpcReply reply, Function<JsonNode, T> reader) {
        if (reply instanceof RpcReply.Failed failed) {
            throw new CallException(failed.failure());
        }
        try {
            return reader.apply(((RpcReply.Result) reply).result());
        } catch (RuntimeException e) {
            throw new CallException(new Malformed("result does not parse: " + e.getMessage()));
        }
    }

    private static AgentCard readCard(int status, Buffer body, Duration retryAfter) {
        if (status < 200 || status >= 300) {
            throw new CallException(new HttpStatus(status, retryAfter));
        }
        try {
            return CardCodec.read(Json.parse(body.getBytes()));
        } catch (RuntimeException e) {
            throw new CallException(new Malformed("agent card does not parse: " + e.getMessage()));
        }
    }
}
