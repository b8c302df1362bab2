package dev.switchboard.chat.web;

import static dev.switchboard.http.JsonHttp.error;
import static dev.switchboard.http.JsonHttp.json;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.auth.CallerAuth;
import dev.switchboard.bridge.Binding;
import dev.switchboard.bridge.SessionDriver;
import dev.switchboard.bridge.TurnRefused;
import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.protocol.kagent.Hitl;
import dev.switchboard.bridge.engine.Actor;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;
import dev.switchboard.http.JsonHttp;
import dev.switchboard.net.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * C1: the built-in web chat — the handlers of its JSON API under {@code /api/chat} and of the page at {@code /}
 * ({@code app/Routes} says which path each answers). Channels come from the web Bindings; each thread is one session
 * with the bound agent.
 *
 * <p>Secure by default (issue 8): every request must name one of our hosts (421, checked for every route by
 * {@code HostCheck} before the router), the API needs an identity
 * ({@link WebIdentity}, 401), and a POST must be JSON (415) from our own page (403): {@link #guard}. A POST with neither
 * {@code Origin} nor {@code Sec-Fetch-Site} (curl, scripts) is taken only with an API key, which a browser
 * cannot send cross-site, or on a loopback-only server; every browser sends {@code Origin} on a POST. A server
 * the operator declared {@code insecure} is open like a loopback one: anyone who reaches it is the default user.
 */
public final class WebChatRoutes {

    /** The most any POST of the API reads (the server refuses a larger declared body before routing it). */
    public static final long MAX_BODY = ChatInput.MAX_TEXT * 2L;

    private final Vertx vertx;
    private final ChatStore store;
    private final SessionDriver driver;
    private final ChatGuard guard;
    private final ThreadStream stream;
    private final Clock clock;
    /** the Bindings in force, read at each request: the Kubernetes watch changes them while the service runs */
    private final Supplier<List<Binding>> bindings;
    private final Function<String, String> descriptions;
    /** the opening message's id → the thread a new-thread POST is opening for it, while it is being accepted */
    private final ConcurrentHashMap<String, Future<Opened>> opening = new ConcurrentHashMap<>();

    /**
     * The server the chat is on.
     *
     * @param host the listen address
     * @param publicUrl the URL people reach it at; null: the listen address
     * @param insecure the operator declared it open to anyone who reaches it
     */
    public record Server(String host, String publicUrl, boolean insecure) {}

    public WebChatRoutes(Vertx vertx, ChatStore store, WebChatPlatform platform, SessionDriver driver,
            Supplier<List<Binding>> bindings, Function<String, String> descriptions, WebChatSettings settings,
            Server server, CallerAuth callers, Clock clock) {
        this.vertx = vertx;
        this.store = store;
        this.stream = new ThreadStream(vertx, platform.events());
        this.driver = driver;
        boolean open = Addresses.isLoopbackOnly(server.host()) || server.insecure();
        this.guard = new ChatGuard(new WebIdentity(settings, callers, open), new OwnOrigin(server.publicUrl()), open);
        this.clock = clock;
        this.descriptions = descriptions;
        this.bindings = bindings;
    }

    /** No other site may frame any answer under the chat's paths, refusals included ({@link NoFraming}). */
    public static void noFraming(RoutingContext ctx) {
        NoFraming.on(ctx);
        ctx.next();
    }

    /**
     * The page and its files. It holds no data, so it needs no identity (it asks for an API key when the API wants
     * one); only our own host names reach it (HostCheck). A path it has no file for goes on to the next route.
     */
    public static Handler<RoutingContext> page() {
        return StaticHandler.create("webchat").setIndexPage("index.html").setCachingEnabled(false);
    }

    /** Identity (401), then for a POST: our own page (403) and JSON (415), before any body is read. */
    public void guard(RoutingContext ctx) {
        guard.handle(ctx);
    }

    /** Any other path under {@code /api/chat/}. */
    public static void noSuchPath(RoutingContext ctx) {
        error(ctx.response(), 404, "no such chat API path", null);
    }

    /** What Vert.x itself refuses (a body over the limit), in the API's own JSON, and no exception's text. */
    public static void failed(RoutingContext ctx) {
        int status = ctx.statusCode();
        if (status == 413) {
            error(ctx.response(), 413, "body: larger than " + (MAX_BODY / 1024) + " KiB", "body");
        } else if (status >= 400 && status < 500) {
            error(ctx.response(), status, "the request was refused", null);
        } else {
            error(ctx.response(), 500, "the chat failed; nothing was changed", null);
        }
    }

    /** {@code GET /api/chat/me}: who the guard let in. */
    public void me(RoutingContext ctx) {
        json(ctx.response(), 200, ChatJson.actor(ChatGuard.user(ctx)));
    }

    /** channel → binding, for the web platform, as the Bindings are now */
    private Map<String, Binding> channels() {
        Map<String, Binding> channels = new LinkedHashMap<>();
        for (Binding b : bindings.get()) {
            if (b.platform() == Platform.WEB) {
                b.channels().forEach(c -> channels.put(c, b));
            }
        }
        return channels;
    }

    public void channels(RoutingContext ctx) {
        ArrayNode list = ChatJson.JSON.createArrayNode();
        channels().forEach((name, b) -> {
            ObjectNode c = list.addObject();
            c.put("name", name);
            c.put("agent", b.backendRef());
            c.put("description", descriptions.apply(b.backendRef()));
        });
        ObjectNode out = ChatJson.JSON.createObjectNode();
        out.set("channels", list);
        json(ctx.response(), 200, out);
    }

    public void threads(RoutingContext ctx) {
        String channel = ctx.pathParam("channel");
        if (!channels().containsKey(channel)) {
            error(ctx.response(), 404, "no such channel: " + channel, "channel");
            return;
        }
        blocking(ctx, () -> store.threads(Platform.WEB, channel, 200), list -> {
            ArrayNode arr = ChatJson.JSON.createArrayNode();
            list.forEach(t -> arr.add(ChatJson.thread(t)));
            ObjectNode out = ChatJson.JSON.createObjectNode();
            out.set("threads", arr);
            json(ctx.response(), 200, out);
        });
    }

    public void newThread(RoutingContext ctx) {
        String channel = ctx.pathParam("channel");
        Binding binding = channels().get(channel);
        if (binding == null) {
            error(ctx.response(), 404, "no such channel: " + channel, "channel");
            return;
        }
        ChatInput.Message m = ChatInput.message(ctx);
        if (m == null) {
            return;
        }
        Actor user = ChatGuard.user(ctx);
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
                ChatThread t = new ChatThread(UUID.randomUUID().toString(), Platform.WEB, channel, binding.name(), ChatInput.title(m.text()),
                        now, now);
                store.createThread(t);
                return t;
            }).compose(t -> driver.accept(t, id, m.text(), user, ctx.request().getHeader("traceparent"),
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
            ObjectNode out = ChatJson.JSON.createObjectNode();
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

    public void newMessage(RoutingContext ctx) {
        String threadId = ctx.pathParam("threadId");
        ChatInput.Message m = ChatInput.message(ctx);
        if (m == null) {
            return;
        }
        Actor user = ChatGuard.user(ctx);
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
                ObjectNode out = ChatJson.JSON.createObjectNode();
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
    public void newAnswer(RoutingContext ctx) {
        String threadId = ctx.pathParam("threadId");
        ChatInput.StructuredAnswer a = ChatInput.structuredAnswer(ctx);
        if (a == null) {
            return;
        }
        Actor user = ChatGuard.user(ctx);
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
                        ObjectNode out = ChatJson.JSON.createObjectNode();
                        out.put("messageId", ar.result().id());
                        json(ctx.response(), 201, out);
                    });
        });
    }

    public void thread(RoutingContext ctx) {
        String threadId = ctx.pathParam("threadId");
        blocking(ctx, () -> webThread(threadId).map(t -> {
            ObjectNode out = ChatJson.thread(t);
            ArrayNode posts = out.putArray("posts");
            store.posts(threadId).forEach(p -> posts.add(ChatJson.post(p)));
            return out;
        }).orElse(null), out -> {
            if (out == null) {
                noSuchThread(ctx, threadId);
            } else {
                json(ctx.response(), 200, out);
            }
        });
    }

    /** The thread's live changes ({@link ThreadStream}), once it is known to be one the web chat shows. */
    public void events(RoutingContext ctx) {
        String threadId = ctx.pathParam("threadId");
        blocking(ctx, () -> webThread(threadId).isPresent(), exists -> {
            if (!exists) {
                noSuchThread(ctx, threadId);
            } else {
                stream.open(ctx.response(), threadId);
            }
        });
    }

    /**
     * The thread, when it is one the web chat shows: a thread of the web platform (M1). A Slack thread (a private
     * channel, a DM) in the same store is not, whoever knows its id; it is answered as a missing one.
     */
    private Optional<ChatThread> webThread(String threadId) {
        return store.thread(threadId).filter(t -> t.platform() == Platform.WEB);
    }

    /** The same answer for a thread that does not exist and one that is not the web chat's: it tells neither apart. */
    private static void noSuchThread(RoutingContext ctx, String threadId) {
        error(ctx.response(), 404, "no such thread: " + threadId, "threadId");
    }

    private <T> void blocking(RoutingContext ctx, Callable<T> work, Consumer<T> then) {
        JsonHttp.blocking(vertx, work, then,
                failure -> error(ctx.response(), 500, "the chat store failed; nothing was changed", null));
    }
}
