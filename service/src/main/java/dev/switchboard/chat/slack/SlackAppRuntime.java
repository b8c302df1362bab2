package dev.switchboard.chat.slack;

import com.google.gson.JsonElement;
import com.slack.api.socket_mode.SocketModeClient;
import com.slack.api.socket_mode.response.AckResponse;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Slack app at work: its Web API client, the intake that turns its events into turns, the poster that shows
 * its threads' posts, and (in socket mode) its Socket Mode connection. Events arrive by either route into
 * {@link #receive}: written to the store first, acknowledged second, handled third.
 */
final class SlackAppRuntime {

    private static final Logger LOG = LoggerFactory.getLogger(SlackAppRuntime.class);
    private static final int MAX_QUEUED_EVENTS = 10_000;

    final SlackPlatform.App app;
    final RequestSignature signature;
    private final SlackApi api;
    private final SlackStore store;
    private final Clock clock;
    private final ThreadPoolExecutor intakeThread;
    private final ScheduledExecutorService postThread;
    private final SlackPoster poster;
    private final SlackApprovers approvers;
    private volatile SlackIntake intake;
    private volatile String botUserId;
    /** the app's own team, from auth.test: who may decide a tool call is one of its members */
    private volatile String teamId;
    private volatile SocketModeClient socket;
    private volatile boolean closed;

    /**
     * @param questionTimeout a Binding's question timeout, by its name
     * @param approversOf a Binding's {@code questions.approvers}, by its name
     */
    SlackAppRuntime(SlackPlatform.App app, ChatStore chats, Clock clock,
            java.util.function.Function<String, Duration> questionTimeout,
            java.util.function.Function<String, java.util.List<String>> approversOf,
            java.util.function.Function<String, java.util.List<String>> allowedOf) {
        this.app = app;
        this.signature = app.signingSecret() == null ? null : new RequestSignature(app.signingSecret());
        this.api = new SlackApi(app.apiUrl(), app.botToken());
        this.store = new SlackStore(chats);
        this.clock = clock;
        this.intakeThread = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(MAX_QUEUED_EVENTS), daemon("slack-intake-" + app.name()));
        this.postThread = Executors.newSingleThreadScheduledExecutor(daemon("slack-post-" + app.name()));
        this.approvers = new SlackApprovers(api, clock, () -> teamId, approversOf, allowedOf);
        this.poster = new SlackPoster(api, store, clock, postThread,
                new PostView(store, questionTimeout, approvers::who, () -> teamId), app.streaming());
    }

    SlackApprovers approvers() {
        return approvers;
    }

    SlackStore store() {
        return store;
    }

    SlackApi api() {
        return api;
    }

    /** The intake events go to; set before anything is received. */
    void attach(SlackIntake intake) {
        this.intake = intake;
    }

    /**
     * Starts: learns the bot's identity, handles the events acknowledged but not handled before a stop, and in
     * socket mode connects. Returns at once; the work runs on the app's threads. Event ids older than a day are
     * forgotten now and every hour.
     */
    void start() {
        intakeThread.execute(this::identify);
        intakeThread.execute(() -> {
            for (SlackStore.StoredEvent e : store.unhandledEvents(app.name())) {
                intake.handle(e.eventId(), new JsonObject(e.body()));
            }
        });
        postThread.scheduleAtFixedRate(() -> {
            try {
                store.forgetEventsBefore(clock.instant().minus(SlackStore.EVENT_MEMORY));
            } catch (RuntimeException e) {
                LOG.warn("slack {}: forgetting old event ids failed: {}", app.name(), e.toString());
            }
        }, 0, 1, TimeUnit.HOURS);
        if (app.mode() == SlackMode.SOCKET) {
            intakeThread.execute(this::connectSocket);
        }
    }

    SlackPoster poster() {
        return poster;
    }

    String botUserId() {
        return botUserId;
    }

    private void identify() {
        try {
            SlackApi.Identity id = api.authTest();
            botUserId = id.botUserId();
            teamId = id.teamId();
            LOG.info("slack {}: connected to team {} as bot user {} ({} mode)", app.name(), id.teamId(), id.botUserId(),
                    app.mode().value());
        } catch (SlackApi.Failure e) {
            LOG.error("slack {}: auth.test failed: {}{}; trying again in a minute", app.name(), e.getMessage(),
                    SlackTroubles.hint(e.error));
            if (!closed) {
                postThread.schedule(() -> intakeThread.execute(this::identify), 1, TimeUnit.MINUTES);
            }
        }
    }

    /**
     * An event envelope, verified: recorded (false when its id was seen before: a retry or a duplicate), then
     * handed to the intake. Blocks on the store; the caller acknowledges after it returns true or false.
     */
    boolean receive(String eventId, String body, JsonObject envelope) {
        if (!store.recordEvent(app.name(), eventId, body, clock.instant())) {
            return false;
        }
        try {
            intakeThread.execute(() -> intake.handle(eventId, envelope));
        } catch (RejectedExecutionException e) {
            // recorded, so it is handled at the next start
            LOG.warn("slack {}: {} events are waiting; event {} is handled after the next restart", app.name(),
                    MAX_QUEUED_EVENTS, eventId);
        }
        return true;
    }

    /** A person pressed a button: acknowledged by the caller, handled on the intake thread. */
    void interaction(JsonObject payload) {
        try {
            intakeThread.execute(() -> intake.interaction(payload));
        } catch (RejectedExecutionException e) {
            LOG.warn("slack {}: too many events are waiting; a button press was dropped", app.name());
        }
    }

    void show(ChatThread thread, Post post) {
        poster.show(thread, post);
    }

    // ---- socket mode ----

    private void connectSocket() {
        if (closed) {
            return;
        }
        try {
            SocketModeClient client = api.socketMode(app.appToken());
            // the SDK's session monitor alone would notice a drop only on its next round (every 5 s)
            client.setAutoReconnectEnabled(true);
            client.setAutoReconnectOnCloseEnabled(true);
            client.addEventsApiEnvelopeListener(envelope -> {
                JsonElement payload = envelope.getPayload();
                JsonObject json = payload == null || !payload.isJsonObject() ? new JsonObject()
                        : new JsonObject(payload.toString());
                String eventId = json.getValue("event_id") instanceof String s ? s : envelope.getEnvelopeId();
                if ("event_callback".equals(json.getString("type"))) {
                    try {
                        receive(eventId, json.encode(), json);
                    } catch (RuntimeException e) {
                        // not recorded, so not acknowledged: Slack delivers it again
                        LOG.error("slack {}: event {} could not be recorded: {}", app.name(), eventId, e.toString());
                        return;
                    }
                }
                // acknowledged once recorded: an event the store did not take is redelivered by Slack
                client.sendSocketModeResponse(AckResponse.builder().envelopeId(envelope.getEnvelopeId()).build());
            });
            client.addInteractiveEnvelopeListener(envelope -> {
                client.sendSocketModeResponse(AckResponse.builder().envelopeId(envelope.getEnvelopeId()).build());
                JsonElement payload = envelope.getPayload();
                if (payload != null && payload.isJsonObject()) {
                    interaction(new JsonObject(payload.toString()));
                }
            });
            // slash commands are not Switchboard's, but an envelope left unacknowledged comes back again and again
            client.addSlashCommandsEnvelopeListener(envelope ->
                    client.sendSocketModeResponse(AckResponse.builder().envelopeId(envelope.getEnvelopeId()).build()));
            client.addWebSocketErrorListener(e -> LOG.warn("slack {}: socket mode: {}", app.name(), e.toString()));
            client.connect();
            socket = client;
            LOG.info("slack {}: socket mode connected", app.name());
        } catch (SlackApi.Failure e) {
            LOG.error("slack {}: socket mode could not connect: {}{}; trying again in 30 s", app.name(), e.getMessage(),
                    SlackTroubles.socketHint(e.error));
            postThread.schedule(() -> intakeThread.execute(this::connectSocket), 30, TimeUnit.SECONDS);
        } catch (java.io.IOException | RuntimeException e) {
            LOG.error("slack {}: socket mode could not connect: {}; trying again in 30 s", app.name(),
                    e.getClass().getSimpleName());
            postThread.schedule(() -> intakeThread.execute(this::connectSocket), 30, TimeUnit.SECONDS);
        }
    }

    boolean socketConnected() {
        SocketModeClient s = socket;
        return s != null && s.verifyConnection();
    }

    void close() {
        closed = true;
        SocketModeClient s = socket;
        if (s != null) {
            try {
                s.close();
            } catch (java.io.IOException | RuntimeException e) {
                LOG.debug("slack {}: socket close: {}", app.name(), e.toString());
            }
        }
        intakeThread.shutdown();
        postThread.shutdown();
        try {
            intakeThread.awaitTermination(5, TimeUnit.SECONDS);
            postThread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
