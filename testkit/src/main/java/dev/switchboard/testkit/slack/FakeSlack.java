package dev.switchboard.testkit.slack;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fake Slack workspace for tests, on one Vert.x server at 127.0.0.1: the Web API methods a chat bridge calls
 * ({@code auth.test}, {@code users.info}, {@code chat.postMessage}, {@code chat.update}, {@code chat.postEphemeral},
 * {@code conversations.replies}, {@code usergroups.users.list}, {@code apps.connections.open}) at {@link #apiUrl()}, and the Socket Mode WebSocket
 * at {@code /socket}. It is proven against the official Java SDK ({@code slack-api-client}), so a product test can
 * point the SDK here ({@code SlackConfig.setMethodsEndpointUrlPrefix(fake.apiUrl())}) and assert on what it posted.
 *
 * <p>Faults a real workspace produces on its own schedule are scripted: {@link #rateLimit} (429 with Retry-After),
 * {@link #dropAfterPerforming} (performed, but the answer lost), {@link #dropSocket} and {@link #requestRefresh}.
 * HTTP-mode events are sent with {@link #events(String)}.
 */
public final class FakeSlack {

    private final HttpServer server;
    private final FakeSlackOptions options;
    private final Workspace workspace;
    private final WebApi api;
    private final SocketMode socket;

    private FakeSlack(HttpServer server, FakeSlackOptions options, Workspace workspace, WebApi api, SocketMode socket) {
        this.server = server;
        this.options = options;
        this.workspace = workspace;
        this.api = api;
        this.socket = socket;
    }

    /** Starts a fake workspace on an ephemeral port of 127.0.0.1. */
    public static Future<FakeSlack> start(Vertx vertx, FakeSlackOptions options) {
        Workspace workspace = new Workspace();
        SocketMode socket = new SocketMode(options);
        // apps.connections.open must hand out the real port, which an ephemeral listen only tells afterwards.
        AtomicInteger port = new AtomicInteger();
        AtomicInteger tickets = new AtomicInteger();
        WebApi api = new WebApi(options, workspace,
                () -> "ws://127.0.0.1:" + port.get() + "/socket?ticket=" + tickets.incrementAndGet());
        Router router = Router.router(vertx);
        router.route("/api/*").handler(BodyHandler.create().setBodyLimit(8 * 1024 * 1024));
        router.route("/api/:method").handler(api::handle);
        router.route().handler(ctx -> ctx.response().setStatusCode(404)
                .putHeader("Content-Type", "application/json")
                .end(WebApi.error("unknown_method").encode()));
        // a message's blocks are one form field of up to 50 blocks of 3,000 characters (url-encoded): more than
        // Vert.x's default 8 KB for a form attribute, which Slack takes
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0)
                .setHttp2ClearTextEnabled(false).setMaxFormAttributeSize(1024 * 1024));
        server.webSocketHandler(ws -> {
            if ("/socket".equals(ws.path())) {
                socket.accept(ws);
            } else {
                ws.close((short) 1008, "no such endpoint");
            }
        });
        server.requestHandler(router);
        return server.listen().map(listening -> {
            port.set(listening.actualPort());
            return new FakeSlack(listening, options, workspace, api, socket);
        });
    }

    /** Starts a fake workspace with {@link FakeSlackOptions#defaults()}. */
    public static Future<FakeSlack> start(Vertx vertx) {
        return start(vertx, FakeSlackOptions.defaults());
    }

    public Future<Void> close() {
        return server.close();
    }

    public int port() {
        return server.actualPort();
    }

    /** The Web API prefix, {@code http://127.0.0.1:PORT/api/}: the SDK appends the method name. */
    public String apiUrl() {
        return "http://127.0.0.1:" + port() + "/api/";
    }

    public FakeSlackOptions options() {
        return options;
    }

    // ---- the workspace

    /** Adds (or replaces) a person {@code users.info} knows. */
    public FakeSlack addUser(String id, String displayName, String realName, String email) {
        workspace.addUser(new Workspace.User(id, displayName, realName, email));
        return this;
    }

    /**
     * Adds a guest: {@code users.info} says {@code is_restricted} (and {@code is_ultra_restricted} for a
     * single-channel guest).
     */
    public FakeSlack addGuest(String id, String displayName, boolean singleChannel) {
        workspace.addUser(new Workspace.User(id, displayName, displayName, null, null, singleChannel ? "single" : "multi"));
        return this;
    }

    /** Adds a person of another organisation, as Slack Connect shows them: {@code users.info} names their team. */
    public FakeSlack addExternalUser(String id, String displayName, String teamId) {
        workspace.addUser(new Workspace.User(id, displayName, displayName, null, teamId, null));
        return this;
    }

    /** Adds (or replaces) a user group ({@code S…}) that {@code usergroups.users.list} answers with its members. */
    public FakeSlack addUserGroup(String groupId, String... userIds) {
        workspace.userGroup(groupId, List.of(userIds));
        return this;
    }

    /**
     * Stores what a person wrote, with a fresh ts; returns it. The product learns of it only through an event:
     * {@link #mentionEvent} / {@link #messageEvent} build the one that matches.
     *
     * @param threadTs the thread's parent ts, or null for a top-level message
     */
    public String postAsUser(String channel, String threadTs, String userId, String text) {
        return workspace.post(channel, threadTs, userId, null, text, null, null).ts();
    }

    /** The {@code app_mention} event for a stored message (same channel, user, text, ts and thread). */
    public JsonObject mentionEvent(String channel, String ts) {
        SlackMessage m = storedMessage(channel, ts);
        return SlackEvents.appMention(channel, m.user(), m.text(), m.ts(), m.threadTs());
    }

    /** The {@code message} event for a stored message. */
    public JsonObject messageEvent(String channel, String ts) {
        SlackMessage m = storedMessage(channel, ts);
        return SlackEvents.message(channel, m.user(), m.text(), m.ts(), m.threadTs());
    }

    private SlackMessage storedMessage(String channel, String ts) {
        SlackMessage message = workspace.message(channel, ts);
        if (message == null) {
            throw new IllegalArgumentException("no message " + ts + " in " + channel);
        }
        return message;
    }

    /** A channel's messages, oldest first (top-level and replies), as of now. */
    public List<SlackMessage> messages(String channel) {
        return workspace.messages(channel);
    }

    /** One message as of now; null when there is none. */
    public SlackMessage message(String channel, String ts) {
        return workspace.message(channel, ts);
    }

    /** A thread's parent and replies, oldest first, as of now; empty when the parent is unknown. */
    public List<SlackMessage> thread(String channel, String threadTs) {
        return workspace.thread(channel, threadTs);
    }

    /** What the bot posted in a channel, oldest first. */
    public List<SlackMessage> botMessages(String channel) {
        return messages(channel).stream().filter(SlackMessage::fromBot).toList();
    }

    // ---- Web API recording and faults

    /** Every Web API call so far, in arrival order. */
    /** Ends a native stream as Slack does when it times out: nothing more can be appended to it. */
    public FakeSlack endStream(String channel, String ts) {
        workspace.endStream(channel, ts);
        return this;
    }

    public List<SlackCall> calls() {
        return api.calls();
    }

    public List<SlackCall> calls(String method) {
        return api.calls().stream().filter(c -> c.method().equals(method)).toList();
    }

    /** The next {@code times} calls of {@code method} get HTTP 429, {@code Retry-After}, and do nothing. */
    public FakeSlack rateLimit(String method, int times, int retryAfterSeconds) {
        api.rateLimit(method, times, retryAfterSeconds);
        return this;
    }

    /**
     * The next {@code times} calls of {@code method} are performed (a post IS stored) but their connection is closed
     * before any response, so the caller cannot know the outcome.
     */
    public FakeSlack dropAfterPerforming(String method, int times) {
        api.dropAfterPerforming(method, times);
        return this;
    }

    // ---- HTTP-mode events

    /** A sender of signed HTTP-mode events, as this workspace's app with this signing secret. */
    public SlackEvents events(String signingSecret) {
        return new SlackEvents(options, signingSecret);
    }

    // ---- Socket Mode

    /** Pushes an {@code events_api} envelope around the event's {@code event_callback}; returns the envelope id. */
    public String pushEvent(JsonObject innerEvent) {
        return pushEvent(innerEvent, null);
    }

    /** As {@link #pushEvent(JsonObject)} with a given {@code event_id} (null for a fresh one). */
    public String pushEvent(JsonObject innerEvent, String eventId) {
        return socket.push("events_api", SlackEvents.eventCallback(options, innerEvent, eventId));
    }

    /** Pushes an {@code interactive} envelope around a payload (block_actions, view_submission…). */
    public String pushInteraction(JsonObject payload) {
        return socket.push("interactive", payload);
    }

    /** Whether the client acked the envelope. */
    public boolean acked(String envelopeId) {
        return socket.acked(envelopeId);
    }

    /** Every ack received, as sent ({@code envelope_id}, and {@code payload} when the client answered with one). */
    public List<JsonObject> acks() {
        return socket.acks();
    }

    /** Every envelope pushed, as last sent. */
    public List<JsonObject> envelopes() {
        return socket.envelopes();
    }

    /** Resends every envelope not acked yet with {@code retry_attempt} set to {@code retryAttempt}; returns their ids. */
    public List<String> redeliverUnacked(int retryAttempt) {
        return socket.redeliverUnacked(retryAttempt);
    }

    /** Closes the current Socket Mode connection abruptly (TCP closed, no close frame). */
    public void dropSocket() {
        socket.drop();
    }

    /** Sends {@code {"type":"disconnect","reason":"refresh_requested"}}: the client should reconnect. */
    public void requestRefresh() {
        socket.requestRefresh();
    }

    /** How many Socket Mode connections were ever opened. */
    public int connections() {
        return socket.connections();
    }

    /** Whether a Socket Mode connection is open. */
    public boolean connected() {
        return socket.connected();
    }
}
