package dev.switchboard.chat.web;

import static dev.switchboard.http.JsonHttp.error;
import static dev.switchboard.http.JsonHttp.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.auth.CallerAuth;
import dev.switchboard.bridge.Binding;
import dev.switchboard.bridge.SessionDriver;
import dev.switchboard.bridge.TurnRefused;
import dev.switchboard.protocol.kagent.Hitl;
import dev.switchboard.bridge.engine.Actor;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;
import dev.switchboard.http.JsonHttp;
import dev.switchboard.net.Addresses;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.StaticHandler;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

/**
 * C1: the built-in web chat — its JSON API under {@code /api/chat} and the page at {@code /}.
 * Channels come from the web Bindings; each thread is one session with the bound agent.
 *
 * <p>Secure by default (issue 8): every request must name one of our hosts (421, checked for every route by
 * {@code HostCheck} before the router), the API needs an identity
 * ({@link WebIdentity}, 401), and a POST must be JSON (415) from our own page (403). A POST with neither
 * {@code Origin} nor {@code Sec-Fetch-Site} (curl, scripts) is taken only with an API key, which a browser
 * cannot send cross-site, or on a loopback-only server; every browser sends {@code Origin} on a POST. A server
 * the operator declared {@code insecure} is open like a loopback one: anyone who reaches it is the default user.
 */
public final class WebChatRoutes {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_TEXT = 32 * 1024;
    /** The most any POST of the API reads (the server refuses a larger declared body before routing it). */
    public static final long MAX_BODY = MAX_TEXT * 2L;
    private static final Pattern MESSAGE_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");
    private static final String CALLER = "webchat.caller";

    private final Vertx vertx;
    private final ChatStore store;
    private final ChatEvents events;
    private final SessionDriver driver;
    private final WebIdentity identity;
    private final OwnOrigin own;
    /** anonymous callers are the default user: a loopback-only server, or one the operator declared insecure */
    private final boolean open;
    private final Clock clock;
    /** the Bindings in force, read at each request: the Kubernetes watch changes them while the service runs */
    private final java.util.function.Supplier<List<Binding>> bindings;
    private final java.util.function.Function<String, String> descriptions;
    /** the opening message's id → the thread a new-thread POST is opening for it, while it is being accepted */
    private final java.util.concurrent.ConcurrentHashMap<String, Future<Opened>> opening =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The server the chat is on.
     *
     * @param host the listen address
     * @param publicUrl the URL people reach it at; null: the listen address
     * @param insecure the operator declared it open to anyone who reaches it
     */
    public record Server(String host, String publicUrl, boolean insecure) {}

    public WebChatRoutes(Vertx vertx, ChatStore store, WebChatPlatform platform, SessionDriver driver,
            java.util.function.Supplier<List<Binding>> bindings, java.util.function.Function<String, String> descriptions,
            WebChatSettings settings,
            Server server, CallerAuth callers, Clock clock) {
        this.vertx = vertx;
        this.store = store;
        this.events = platform.events();
        this.driver = driver;
        this.open = Addresses.isLoopbackOnly(server.host()) || server.insecure();
        this.identity = new WebIdentity(settings, callers, open);
        this.own = new OwnOrigin(server.publicUrl());
        this.clock = clock;
        this.descriptions = descriptions;
        this.bindings = bindings;
    }

    /** channel → binding, for the web platform, as the Bindings are now */
    private Map<String, Binding> channels() {
        Map<String, Binding> channels = new LinkedHashMap<>();
        for (Binding b : bindings.get()) {
            if (WebChatPlatform.NAME.equals(b.platform())) {
                b.channels().forEach(c -> channels.put(c, b));
            }
        }
        return channels;
    }

    public void mount(Router router) {
        BodyHandler body = JsonHttp.bodyOf(MAX_TEXT * 2L);
        router.route("/api/chat/*").handler(ctx -> {
            NoFraming.on(ctx);
            ctx.next();
        }).handler(this::guard);
        router.get("/api/chat/me").handler(ctx -> json(ctx.response(), 200, actorJson(user(ctx))));
        router.get("/api/chat/channels").handler(this::channels);
        router.get("/api/chat/channels/:channel/threads").handler(this::threads);
        router.post("/api/chat/channels/:channel/threads").handler(body).handler(this::newThread);
        router.get("/api/chat/threads/:threadId").handler(this::thread);
        router.post("/api/chat/threads/:threadId/messages").handler(body).handler(this::newMessage);
        router.post("/api/chat/threads/:threadId/answers").handler(body).handler(this::newAnswer);
        router.get("/api/chat/threads/:threadId/events").handler(this::events);
        router.route("/api/chat/*").handler(ctx -> error(ctx.response(), 404, "no such chat API path", null));
        // what Vert.x itself refuses (a body over the limit), in the API's own JSON, and no exception's text
        router.route("/api/chat/*").failureHandler(ctx -> {
            int status = ctx.statusCode();
            if (status == 413) {
                error(ctx.response(), 413, "body: larger than " + (MAX_TEXT * 2 / 1024) + " KiB", "body");
            } else if (status >= 400 && status < 500) {
                error(ctx.response(), status, "the request was refused", null);
            } else {
                error(ctx.response(), 500, "the chat failed; nothing was changed", null);
            }
        });
    }

    /**
     * The page; mounted last, as it answers every GET no other route took. It holds no data, so it needs no
     * identity (it asks for an API key when the API wants one); only our own host names reach it (HostCheck).
     */
    public void mountPage(Router router) {
        router.get("/*").handler(ctx -> {
            NoFraming.on(ctx);
            ctx.next();
        }).handler(StaticHandler.create("webchat").setIndexPage("index.html").setCachingEnabled(false));
    }

    /** Identity (401), then for a POST: our own page (403) and JSON (415); the Host (421) was checked before any route. */
    private void guard(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        HttpServerResponse response = ctx.response();
        Optional<WebIdentity.Caller> caller = identity.of(request);
        if (caller.isEmpty()) {
            response.putHeader("WWW-Authenticate", "Bearer realm=\"switchboard\"");
            error(response, 401, "sign in: this chat needs an API key (Authorization: Bearer <key>) or a signed-in "
                    + "user from the proxy in front of it", null);
            return;
        }
        if (request.method() == HttpMethod.POST) {
            String refusal = crossSite(request, caller.get());
            if (refusal != null) {
                error(response, 403, refusal, null);
                return;
            }
            String type = request.getHeader("Content-Type");
            if (type == null || !type.split(";", 2)[0].trim().equalsIgnoreCase("application/json")) {
                error(response, 415, "Content-Type: application/json is required", "Content-Type");
                return;
            }
        }
        ctx.put(CALLER, caller.get().actor());
        ctx.next();
    }

    /** Why a POST may have come from another site's page; null when it comes from ours. */
    private String crossSite(HttpServerRequest request, WebIdentity.Caller caller) {
        String origin = request.getHeader("Origin");
        if (origin != null) {
            return own.sameOrigin(request, origin, identity.fromProxy(request)) ? null
                    : "cross-site request refused: Origin is not this chat's";
        }
        String site = request.getHeader("Sec-Fetch-Site");
        if (site != null) {
            return site.trim().equalsIgnoreCase("same-origin") ? null : "cross-site request refused: Sec-Fetch-Site " + site.trim();
        }
        // no browser sends a POST with neither header; a script with a key or on this machine may
        return caller.byKey() || open ? null
                : "a POST needs an Origin or Sec-Fetch-Site header, or an API key";
    }

    private void channels(RoutingContext ctx) {
        ArrayNode list = JSON.createArrayNode();
        channels().forEach((name, b) -> {
            ObjectNode c = list.addObject();
            c.put("name", name);
            c.put("agent", b.backendRef());
            c.put("description", descriptions.apply(b.backendRef()));
        });
        ObjectNode out = JSON.createObjectNode();
        out.set("channels", list);
        json(ctx.response(), 200, out);
    }

    private void threads(RoutingContext ctx) {
        String channel = ctx.pathParam("channel");
        if (!channels().containsKey(channel)) {
            error(ctx.response(), 404, "no such channel: " + channel, "channel");
            return;
        }
        blocking(ctx, () -> store.threads(WebChatPlatform.NAME, channel, 200), list -> {
            ArrayNode arr = JSON.createArrayNode();
            list.forEach(t -> arr.add(threadJson(t)));
            ObjectNode out = JSON.createObjectNode();
            out.set("threads", arr);
            json(ctx.response(), 200, out);
        });
    }

    private void newThread(RoutingContext ctx) {
        String channel = ctx.pathParam("channel");
        Binding binding = channels().get(channel);
        if (binding == null) {
            error(ctx.response(), 404, "no such channel: " + channel, "channel");
            return;
        }
        Message m = message(ctx);
        if (m == null) {
            return;
        }
        Actor user = user(ctx);
        // a retried POST with the same messageId finds its thread instead of opening another, also while the
        // first is still being accepted: concurrent POSTs of one messageId share one opening
        String messageId = WebMessageIds.opening(channel, m.key());
        boolean[] first = {false};
        Future<Opened> opened = opening.computeIfAbsent(messageId, id -> {
            first[0] = true;
            return vertx.executeBlocking(() -> {
                var existing = store.post(id);
                if (existing.isPresent()) {
                    // the id is this channel's by construction; a thread elsewhere is never handed out for it
                    return webThread(existing.get().threadId()).filter(t -> t.channel().equals(channel))
                            .orElseThrow(() -> new TurnRefused.MessageIdTaken(id));
                }
                var now = clock.instant();
                ChatThread t = new ChatThread(UUID.randomUUID().toString(), WebChatPlatform.NAME, channel, binding.name(), title(m.text),
                        now, now);
                store.createThread(t);
                return t;
            }).compose(t -> driver.accept(t, id, m.text, user, ctx.request().getHeader("traceparent"),
                    ctx.request().getHeader("tracestate")).map(post -> new Opened(t, post)));
        });
        if (first[0]) {
            // from now on the store knows the message (or it was refused): later retries look it up there
            opened.onComplete(ar -> opening.remove(messageId, opened));
        }
        opened.onComplete(ar -> {
            if (ar.failed()) {
                refused(ctx.response(), ar.cause());
                return;
            }
            ObjectNode out = JSON.createObjectNode();
            out.put("threadId", ar.result().thread().threadId());
            out.put("messageId", ar.result().post().id());
            json(ctx.response(), 201, out);
        });
    }

    private record Opened(ChatThread thread, Post post) {}

    /** A message the bridge did not take: our own words for why, never an exception's text. */
    private static void refused(HttpServerResponse response, Throwable cause) {
        if (cause instanceof TurnRefused.MessageIdTaken) {
            error(response, 409, "messageId: already used by another message", "messageId");
        } else if (cause instanceof TurnRefused.QueueFull q) {
            response.putHeader("Retry-After", "10");
            error(response, 429, "this thread already has " + q.limit() + " messages waiting for the agent; "
                    + "send this one when they have been answered", null);
        } else if (cause instanceof TurnRefused.NotTheQuestion q) {
            error(response, 409, "questionId: " + q.getMessage(), "questionId");
        } else if (cause instanceof TurnRefused.BindingGone) {
            error(response, 410, "this thread's channel is no longer bound to an agent; start a thread in another channel",
                    "threadId");
        } else {
            error(response, 500, "the chat store failed; nothing was changed", null);
        }
    }

    private void newMessage(RoutingContext ctx) {
        String threadId = ctx.pathParam("threadId");
        Message m = message(ctx);
        if (m == null) {
            return;
        }
        Actor user = user(ctx);
        blocking(ctx, () -> webThread(threadId).map(t -> new Target(t, messageIn(t, m.key()))).orElse(null), target -> {
            if (target == null) {
                noSuchThread(ctx, threadId);
                return;
            }
            driver.accept(target.thread(), target.messageId(), m.text(), user, ctx.request().getHeader("traceparent"),
                    ctx.request().getHeader("tracestate")).onComplete(ar -> {
                if (ar.failed()) {
                    refused(ctx.response(), ar.cause());
                    return;
                }
                ObjectNode out = JSON.createObjectNode();
                out.put("messageId", ar.result().id());
                json(ctx.response(), 201, out);
            });
        });
    }

    private record Target(ChatThread thread, String messageId) {}

    /**
     * The id of the message {@code key} names in {@code thread}: derived from the key ({@link WebMessageIds}), unless
     * the key is a person's message of this thread already (the id this API answered with, or one a caller chose
     * before ids were derived): then that message, so that its retry finds it. Never a post of another thread, nor
     * anything but a person's message.
     */
    private String messageIn(ChatThread thread, String key) {
        return store.post(thread.threadId(), key).filter(p -> Post.USER.equals(p.kind())).map(Post::id)
                .orElseGet(() -> WebMessageIds.message(thread.threadId(), key));
    }

    /**
     * A structured answer to a kagent-v1 question: {@code {"questionId", "decision": "approve"|"reject", "reason"?}}
     * for an approval, {@code {"questionId", "answers": [...]}} for ask-user (one entry per question: a string, or a
     * list of strings for a question that allows several). One answer per question however often it is sent: its
     * messageId is derived from the question's ({@link WebMessageIds#answer}).
     */
    private void newAnswer(RoutingContext ctx) {
        String threadId = ctx.pathParam("threadId");
        JsonNode body = JsonHttp.body(ctx, "body: a JSON object {\"questionId\", \"decision\" | \"answers\"} is required");
        if (body == null) {
            return;
        }
        StructuredAnswer a = structuredAnswer(ctx, body);
        if (a == null) {
            return;
        }
        Actor user = user(ctx);
        blocking(ctx, () -> webThread(threadId).orElse(null), thread -> {
            if (thread == null) {
                noSuchThread(ctx, threadId);
                return;
            }
            driver.answer(thread, WebMessageIds.answer(a.questionId()), a.questionId(), a.answer(), Hitl.label(a.answer()), user)
                    .onComplete(ar -> {
                        if (ar.failed()) {
                            refused(ctx.response(), ar.cause());
                            return;
                        }
                        ObjectNode out = JSON.createObjectNode();
                        out.put("messageId", ar.result().id());
                        json(ctx.response(), 201, out);
                    });
        });
    }

    private record StructuredAnswer(String questionId, Hitl.Answer answer) {}

    private StructuredAnswer structuredAnswer(RoutingContext ctx, JsonNode body) {
        if (!body.isObject()) {
            error(ctx.response(), 400, "body: a JSON object is required", "body");
            return null;
        }
        JsonNode q = body.get("questionId");
        if (q == null || !q.isTextual() || !MESSAGE_ID.matcher(q.asText()).matches()) {
            error(ctx.response(), 400, "questionId: the question post's id is required", "questionId");
            return null;
        }
        JsonNode decision = body.get("decision");
        JsonNode answers = body.get("answers");
        if ((decision == null) == (answers == null)) {
            error(ctx.response(), 400, "give exactly one of decision (an approval) and answers (ask-user)", "decision");
            return null;
        }
        if (decision != null) {
            if (!decision.isTextual() || !(decision.asText().equals("approve") || decision.asText().equals("reject"))) {
                error(ctx.response(), 400, "decision: approve or reject", "decision");
                return null;
            }
            JsonNode reason = body.get("reason");
            if (reason != null && !reason.isNull() && (!reason.isTextual() || reason.asText().length() > MAX_TEXT)) {
                error(ctx.response(), 400, "reason: a string of at most " + MAX_TEXT + " characters", "reason");
                return null;
            }
            String why = reason == null || reason.isNull() || reason.asText().isBlank() ? null : reason.asText();
            return new StructuredAnswer(q.asText(), new Hitl.Answer.Decision(decision.asText().equals("approve"), why));
        }
        if (!answers.isArray() || answers.isEmpty() || answers.size() > 50) {
            error(ctx.response(), 400, "answers: a list with one entry per question", "answers");
            return null;
        }
        List<List<String>> all = new ArrayList<>();
        int total = 0;
        for (int i = 0; i < answers.size(); i++) {
            JsonNode one = answers.get(i);
            List<String> values = new ArrayList<>();
            if (one.isTextual()) {
                values.add(one.asText());
            } else if (one.isArray() && one.size() <= 50) {
                for (JsonNode v : one) {
                    if (!v.isTextual()) {
                        values = null;
                        break;
                    }
                    values.add(v.asText());
                }
            } else {
                values = null;
            }
            if (values == null || values.isEmpty()) {
                error(ctx.response(), 400, "answers[" + i + "]: a string, or a list of strings", "answers");
                return null;
            }
            total += values.stream().mapToInt(String::length).sum();
            all.add(values);
        }
        if (total > MAX_TEXT) {
            error(ctx.response(), 400, "answers: longer than " + MAX_TEXT + " characters in all", "answers");
            return null;
        }
        return new StructuredAnswer(q.asText(), new Hitl.Answer.Answers(all));
    }

    private void thread(RoutingContext ctx) {
        String threadId = ctx.pathParam("threadId");
        blocking(ctx, () -> webThread(threadId).map(t -> {
            ObjectNode out = threadJson(t);
            ArrayNode posts = out.putArray("posts");
            store.posts(threadId).forEach(p -> posts.add(postJson(p)));
            return out;
        }).orElse(null), out -> {
            if (out == null) {
                noSuchThread(ctx, threadId);
            } else {
                json(ctx.response(), 200, out);
            }
        });
    }

    /** SSE of the thread's post changes (upserts by id), with keepalive comments. */
    private void events(RoutingContext ctx) {
        String threadId = ctx.pathParam("threadId");
        HttpServerResponse r = ctx.response();
        blocking(ctx, () -> webThread(threadId).isPresent(), exists -> {
            if (!exists) {
                noSuchThread(ctx, threadId);
                return;
            }
            if (r.closed()) {
                return; // the client left during the lookup: nothing to watch for it
            }
            r.setChunked(true)
                    .putHeader("Content-Type", "text/event-stream")
                    .putHeader("Cache-Control", "no-cache")
                    .putHeader("X-Accel-Buffering", "no");
            Context context = vertx.getOrCreateContext();
            Runnable stop = events.watch(threadId, post -> context.runOnContext(v -> {
                if (!r.closed() && !r.ended()) {
                    r.write("event: post\ndata: " + postJson(post) + "\n\n");
                }
            }));
            // watching before saying so: a client that saw "connected" misses no change after it
            r.write(": connected\n\n");
            long keepalive = vertx.setPeriodic(15_000, id -> {
                if (!r.closed() && !r.ended()) {
                    r.write(": keepalive\n\n");
                }
            });
            AtomicBoolean released = new AtomicBoolean();
            Runnable release = () -> {
                if (released.compareAndSet(false, true)) {
                    stop.run();
                    vertx.cancelTimer(keepalive);
                }
            };
            // whichever comes first: the connection closes, the response ends, or writing fails
            r.closeHandler(v -> release.run());
            r.endHandler(v -> release.run());
            r.exceptionHandler(e -> release.run());
            if (r.closed()) {
                release.run();
            }
        });
    }

    /**
     * The thread, when it is one the web chat shows: a thread of the web platform (M1). A Slack thread (a private
     * channel, a DM) in the same store is not, whoever knows its id; it is answered as a missing one.
     */
    private Optional<ChatThread> webThread(String threadId) {
        return store.thread(threadId).filter(t -> WebChatPlatform.NAME.equals(t.platform()));
    }

    /** The same answer for a thread that does not exist and one that is not the web chat's: it tells neither apart. */
    private static void noSuchThread(RoutingContext ctx, String threadId) {
        error(ctx.response(), 404, "no such thread: " + threadId, "threadId");
    }

    // ---- input ----

    /**
     * A person's message as sent: {@code key} is the caller's {@code messageId} (one of ours when it sent none), an
     * idempotency key only; the message's id is derived from it by {@link WebMessageIds}.
     */
    private record Message(String key, String text) {}

    /** The body {text, messageId?}; answers 400 naming the field and returns null when it is wrong. */
    private Message message(RoutingContext ctx) {
        String required = "body: a JSON object {\"text\": …} is required";
        JsonNode body = JsonHttp.body(ctx, required);
        if (body == null) {
            return null;
        }
        if (!body.isObject()) {
            error(ctx.response(), 400, required, "body");
            return null;
        }
        JsonNode text = body.get("text");
        if (text == null || !text.isTextual() || text.asText().isBlank()) {
            error(ctx.response(), 400, "text: a non-empty string is required", "text");
            return null;
        }
        if (text.asText().length() > MAX_TEXT) {
            error(ctx.response(), 400, "text: longer than " + MAX_TEXT + " characters", "text");
            return null;
        }
        JsonNode id = body.get("messageId");
        String messageId;
        if (id == null || id.isNull()) {
            messageId = UUID.randomUUID().toString();
        } else if (!id.isTextual() || !MESSAGE_ID.matcher(id.asText()).matches()) {
            error(ctx.response(), 400, "messageId: 1-128 letters, digits or . _ : -", "messageId");
            return null;
        } else {
            messageId = id.asText();
        }
        return new Message(messageId, text.asText());
    }

    /** The caller the guard identified. */
    private static Actor user(RoutingContext ctx) {
        return ctx.get(CALLER);
    }

    private static String title(String text) {
        String line = text.strip().split("\\R", 2)[0];
        return line.length() > 80 ? line.substring(0, 79) + "…" : line;
    }

    // ---- output ----

    static ObjectNode threadJson(ChatThread t) {
        ObjectNode n = JSON.createObjectNode();
        n.put("threadId", t.threadId());
        n.put("channel", t.channel());
        n.put("title", t.title());
        n.put("createdAt", t.createdAt().toString());
        n.put("lastActivity", t.lastActivity().toString());
        return n;
    }

    static ObjectNode postJson(Post p) {
        ObjectNode n = JSON.createObjectNode();
        n.put("id", p.id());
        n.put("kind", p.kind());
        n.put("text", p.text());
        if (p.author() == null) {
            n.putNull("author");
        } else {
            n.set("author", actorJson(p.author()));
        }
        n.put("turnMessageId", p.turnMessageId());
        n.put("state", p.state());
        n.put("createdAt", p.createdAt().toString());
        n.put("updatedAt", p.updatedAt().toString());
        n.put("seq", p.seq());
        if (p.data() != null) {
            // a kagent question's request (tools to approve, or questions and choices), or a step card
            try {
                n.set("data", JSON.readTree(p.data()));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                n.putNull("data");
            }
        }
        return n;
    }

    private static ObjectNode actorJson(Actor a) {
        ObjectNode n = JSON.createObjectNode();
        n.put("id", a.id());
        n.put("name", a.name());
        n.put("email", a.email());
        return n;
    }

    private <T> void blocking(RoutingContext ctx, Callable<T> work, java.util.function.Consumer<T> then) {
        JsonHttp.blocking(vertx, work, then,
                failure -> error(ctx.response(), 500, "the chat store failed; nothing was changed", null));
    }
}
