package dev.switchboard.trigger;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.bridge.Binding;
import dev.switchboard.bridge.SessionDriver;
import dev.switchboard.bridge.TurnRefused;
import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The configured triggers (B15): each reads its callers' payloads in its format and starts turns with no person in
 * its Binding's first channel. A group is one thread; a notification is one turn, its messageId derived from the
 * trigger and the notification, so a delivery made again (a retry, also after a restart) finds the turn already
 * accepted and runs nothing.
 */
public final class Triggers {

    /** replaced whole by {@link #replace}: a request finds one consistent version of its trigger */
    private volatile Map<String, Trigger> byName = Map.of();
    private final ChatStore chats;
    private final SessionDriver driver;
    private final TriggerStore store;
    private final Map<Platform, ThreadOpener> openers;
    private final Clock clock;
    /** one delivery of a trigger at a time: a group's thread is opened once, a duplicate is told as one */
    private final Map<String, Object> locks = new ConcurrentHashMap<>();

    /** A trigger with what it needs at run time. */
    record Trigger(TriggerSettings settings, Binding binding, RateLimit rate, byte[] tokenDigest) {
        String channel() {
            return binding.channels().get(0);
        }
    }

    /** A turn accepted (now, or by an earlier delivery of the same notification). */
    public record Accepted(String threadId, String messageId, boolean duplicate) {}

    /** The thread of a group could not be opened on its platform (e.g. Slack did not take the root message). */
    static final class OpenFailed extends RuntimeException {
        OpenFailed(String message, Throwable cause) {
            super(message, cause, false, false);
        }
    }

    /**
     * @param bindings the configured Bindings; each trigger's is among them (the configuration checked it)
     * @param openers how each platform opens a thread
     */
    public Triggers(List<TriggerSettings> triggers, List<Binding> bindings, ChatStore chats, SessionDriver driver,
            Map<Platform, ThreadOpener> openers, Clock clock) {
        this.chats = chats;
        this.driver = driver;
        this.store = new TriggerStore(chats);
        this.openers = Map.copyOf(openers);
        this.clock = clock;
        for (TriggerSettings t : triggers) {
            if (bindings.stream().noneMatch(x -> x.name().equals(t.binding()))) {
                throw new IllegalArgumentException("trigger " + t.name() + ": no binding " + t.binding());
            }
        }
        replace(triggers, bindings);
    }

    /**
     * Puts {@code triggers} in force for the next request (Kubernetes watch mode changes them while the service
     * runs): a new token is checked at once, a removed trigger is a 404. A trigger whose rate did not change keeps its
     * bucket (changing its token does not refill it). One whose Binding is not among {@code bindings} is left out:
     * the watch's status says why.
     */
    public synchronized void replace(List<TriggerSettings> triggers, List<Binding> bindings) {
        Map<String, Trigger> current = byName;
        Map<String, Trigger> next = new LinkedHashMap<>();
        for (TriggerSettings t : triggers) {
            Binding b = bindings.stream().filter(x -> x.name().equals(t.binding())).findFirst().orElse(null);
            if (b == null) {
                continue;
            }
            Trigger before = current.get(t.name());
            RateLimit rate = before != null && before.settings().perMinute() == t.perMinute()
                    && before.settings().burst() == t.burst() ? before.rate() : new RateLimit(t.perMinute(), t.burst(), clock);
            next.put(t.name(), new Trigger(t, b, rate, sha256(t.token().getBytes(StandardCharsets.UTF_8))));
        }
        byName = java.util.Collections.unmodifiableMap(next);
    }

    boolean isEmpty() {
        return byName.isEmpty();
    }

    Optional<Trigger> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** Whether {@code presented} is the trigger's token, in time that does not depend on where they differ. */
    static boolean tokenMatches(Trigger t, String presented) {
        return MessageDigest.isEqual(t.tokenDigest(), sha256(presented.getBytes(StandardCharsets.UTF_8)));
    }

    /** Reads a payload in the trigger's format; a problem is a {@link BadPayload} naming the field. */
    static Notification read(Trigger t, JsonNode body) {
        return switch (t.settings().format()) {
            case ALERTMANAGER -> AlertmanagerFormat.read(t.settings().name(), body);
            case GENERIC -> GenericFormat.read(t.settings().name(), body);
        };
    }

    /** The turn's messageId: the trigger and the notification's identity, hashed. */
    static String messageId(String trigger, Notification n) {
        return "trigger-" + trigger + "-" + hex(sha256((trigger + "\n" + n.identity()).getBytes(StandardCharsets.UTF_8)))
                .substring(0, 40);
    }

    /**
     * Writes the notification's turn into its group's thread (opening the thread first if the group is new) and
     * returns once the bridge has accepted it; the turn continues the sender's W3C trace context when it sent one
     * (null: none). Blocks: runs on a worker thread.
     */
    Accepted deliver(Trigger t, Notification n, String traceparent, String tracestate) throws Exception {
        String name = t.settings().name();
        String messageId = messageId(name, n);
        synchronized (locks.computeIfAbsent(name, k -> new Object())) {
            Optional<Post> existing = chats.post(messageId);
            if (existing.isPresent()) {
                if (!isTurnOf(t, existing.get())) {
                    // the id is this trigger's by construction (no caller picks a post id, issue 22); a post of it that
                    // is not this trigger's turn (planted while callers could) is told, never taken as a duplicate
                    throw new TurnRefused.MessageIdTaken(messageId);
                }
                return new Accepted(existing.get().threadId(), messageId, true);
            }
            String groupHash = hex(sha256((t.binding().name() + "\n" + t.channel() + "\n" + n.groupKey())
                    .getBytes(StandardCharsets.UTF_8)));
            ChatThread thread = store.thread(name, groupHash).flatMap(chats::thread).orElse(null);
            if (thread == null) {
                thread = open(t, groupHash, n.title());
                store.record(name, groupHash, thread.threadId(), clock.instant());
            }
            Post accepted = await(driver.accept(thread, messageId, n.text(), null, traceparent, tracestate));
            return new Accepted(thread.threadId(), accepted.id(), false);
        }
    }

    /** A turn no person wrote, in a thread of the trigger's Binding: what an earlier delivery left. */
    private boolean isTurnOf(Trigger t, Post p) {
        return Post.USER.equals(p.kind()) && p.author() == null
                && chats.thread(p.threadId()).map(x -> x.binding().equals(t.binding().name())).orElse(false);
    }

    private ChatThread open(Trigger t, String groupHash, String title) {
        ThreadOpener opener = openers.get(t.binding().platform());
        if (opener == null) {
            throw new OpenFailed("no platform " + t.binding().platform().configName() + " to open a thread on", null);
        }
        try {
            return opener.open(t.binding().name(), t.channel(),
                    "trigger:" + t.settings().name() + ":" + groupHash.substring(0, 32), title);
        } catch (Exception e) {
            throw new OpenFailed("the thread could not be opened: " + e.getMessage(), e);
        }
    }

    private static <T> T await(io.vertx.core.Future<T> f) throws Exception {
        try {
            return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        } catch (TimeoutException e) {
            throw new IllegalStateException("the bridge did not accept the turn in time", e);
        }
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
