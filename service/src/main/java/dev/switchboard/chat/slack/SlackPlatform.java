package dev.switchboard.chat.slack;

import dev.switchboard.bridge.Binding;
import dev.switchboard.bridge.ChatPlatform;
import dev.switchboard.bridge.SessionDriver;
import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Slack as the bridge sees it (C2): threads of platform {@code slack}, people named {@code [Slack: …]}, and each
 * post shown as a message in its Slack thread by the app its Binding names. Built before the bridge (the bridge
 * takes its platforms), started once the bridge's driver and store exist.
 */
public final class SlackPlatform implements ChatPlatform {

    private static final Logger LOG = LoggerFactory.getLogger(SlackPlatform.class);
    /** The most {@code /slack/events} and {@code /slack/interactions} read of a body. */
    public static final long MAX_BODY = SlackRoutes.MAX_BODY;

    /**
     * A SlackApp with its secrets resolved; the values never leave this package, and never print.
     *
     * @param apiUrl the Web API's URL prefix, ending in {@code /}
     */
    public record App(String name, SlackMode mode, String apiUrl, String botToken, String signingSecret, String appToken,
            SlackStreaming streaming) {
        @Override
        public String toString() {
            return "App[" + name + ", " + mode.value() + ", " + apiUrl + ", " + streaming.value() + "]";
        }
    }

    private final List<App> apps;
    private final Clock clock;
    private final Map<String, SlackAppRuntime> runtimes = new LinkedHashMap<>();
    /** app name → channel → the slack Binding in force there; replaced whole by {@link #bindings(List)} */
    private volatile Map<String, Map<String, Binding>> byAppAndChannel = Map.of();
    /**
     * binding name → its app's name, its question timeout and its approvers. Never forgotten: a Binding removed while a turn of
     * its threads runs still has that turn's last post (the notice saying it was removed) shown by its app.
     */
    private final Map<String, String> appOfBinding = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, Duration> questionTimeouts = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, List<String>> approvers = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, List<String>> allowedUsers = new java.util.concurrent.ConcurrentHashMap<>();

    public SlackPlatform(List<App> apps, List<Binding> bindings, Clock clock) {
        this.apps = List.copyOf(apps);
        this.clock = clock;
        bindings(bindings);
    }

    /**
     * Puts the Bindings in force for the next event (Kubernetes watch mode changes them while the service runs): a
     * mention in a channel bound now starts a turn, one in a channel no longer bound starts nothing. Bindings of
     * other platforms are ignored; one naming an app that is not running binds nothing.
     */
    public void bindings(List<Binding> bindings) {
        Map<String, Map<String, Binding>> next = new HashMap<>();
        for (Binding b : bindings) {
            if (b.platform() != Platform.SLACK) {
                continue;
            }
            appOfBinding.put(b.name(), b.app());
            questionTimeouts.put(b.name(), b.questionTimeout());
            approvers.put(b.name(), b.approvers());
            allowedUsers.put(b.name(), b.allowedUsers());
            Map<String, Binding> channels = next.computeIfAbsent(b.app(), a -> new HashMap<>());
            // the first in configuration order wins a channel, as the loader's check expects
            b.channels().forEach(c -> channels.putIfAbsent(c, b));
        }
        next.replaceAll((app, channels) -> Map.copyOf(channels));
        byAppAndChannel = Map.copyOf(next);
    }

    /** The Binding in force on {@code channel} of {@code app}, or null. */
    private Binding bindingOf(String app, String channel) {
        Map<String, Binding> channels = byAppAndChannel.get(app);
        return channels == null ? null : channels.get(channel);
    }

    @Override
    public Platform platform() {
        return Platform.SLACK;
    }

    @Override
    public void show(ChatThread thread, Post post) {
        SlackAppRuntime app = runtimes.get(appOfBinding.get(thread.binding()));
        if (app != null) {
            app.show(thread, post);
        }
    }

    private ChatStore chats;
    /** a Binding's agent's skills, by the Binding's name, for an assistant thread's suggested prompts */
    private volatile Function<String, List<dev.switchboard.protocol.model.AgentSkill>> skillsOf = name -> List.of();

    /** Where an assistant thread's suggested prompts come from: the agent's skills; set before {@link #attach}. */
    public void skills(Function<String, List<dev.switchboard.protocol.model.AgentSkill>> skills) {
        this.skillsOf = skills;
    }

    /**
     * Connects every app to the bridge: from now on an event received is recorded and handed to the bridge (the
     * routes are mounted after this). Nothing is called yet: see {@link #start}.
     */
    public void attach(SessionDriver driver, ChatStore chats, dev.switchboard.bridge.AnswerFeedback answers,
            io.micrometer.core.instrument.MeterRegistry meters) {
        this.chats = chats;
        SlackFeedback feedback = new SlackFeedback(chats, answers, meters, clock);
        Function<String, Duration> questionTimeout = questionTimeouts::get;
        for (App a : apps) {
            SlackAppRuntime rt = new SlackAppRuntime(a, chats, clock, questionTimeout, approvers::get, allowedUsers::get);
            SlackIntake intake = new SlackIntake(a.name(), rt.store(), chats, driver,
                    new SlackPeople(rt.api(), clock), rt.poster(), channel -> bindingOf(a.name(), channel), clock,
                    rt::botUserId, rt.approvers(), rt.api());
            intake.extras(feedback, new SlackAssistant(a.name(), rt.api(), channel -> bindingOf(a.name(), channel),
                    name -> skillsOf.apply(name)));
            runtimes.put(a.name(), rt);
            rt.attach(intake);
        }
    }

    /**
     * Starts every app once the bridge has resumed its sessions: learns who the bot is, handles events a stop left
     * unhandled, opens the sockets, and shows again what a stop left unshown.
     */
    public void start() {
        runtimes.values().forEach(SlackAppRuntime::start);
        if (!runtimes.isEmpty()) {
            showBehind(chats, runtimes.values().iterator().next().store());
        }
    }

    /** Posts whose latest version Slack may not show (the process stopped between a commit and its call). */
    private void showBehind(ChatStore chats, SlackStore store) {
        Thread t = new Thread(() -> {
            try {
                Instant since = clock.instant().minus(Duration.ofDays(1));
                for (String postId : store.postsBehind(since)) {
                    chats.post(postId).ifPresent(p -> chats.thread(p.threadId()).ifPresent(thread -> show(thread, p)));
                }
            } catch (RuntimeException e) {
                LOG.warn("slack: could not look for posts left unshown: {}", e.toString());
            }
        }, "slack-catch-up");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Starts a thread that no person opened (a trigger's alert group): a Slack thread exists once it has a root
     * message, so one is posted in {@code channel} by the Binding's app, naming what the thread is about; the thread,
     * {@code slack:<channel>:<ts>}, is then stored. The agent's answers are posted in it like any other. Blocks: call it
     * on a worker thread. A failure (Slack refused or did not answer) throws; nothing is stored.
     */
    public ChatThread openThread(String binding, String channel, String title) throws Exception {
        SlackAppRuntime app = runtimes.get(appOfBinding.get(binding));
        if (app == null || chats == null) {
            throw new IllegalStateException("binding " + binding + " has no Slack app");
        }
        String text = ":rotating_light: *" + SlackPoster.escape(title) + "*\n_A trigger started this thread: the agent "
                + "answers below. Mention me here to ask it more._";
        String ts = app.api().post(channel, null, text, "trigger-root-" + java.util.UUID.randomUUID(), 0);
        Instant now = clock.instant();
        return chats.ensureThread(new ChatThread(SlackThreads.threadId(channel, ts), Platform.SLACK, channel, binding, title, now, now));
    }

    /**
     * The handlers of {@code /slack/events} and {@code /slack/interactions}: empty unless an app is in events mode (in
     * Socket Mode Slack is reached, not reaching us, and the paths are not served).
     */
    public java.util.Optional<SlackRoutes> eventsRoutes(Vertx vertx) {
        List<SlackAppRuntime> events = runtimes.values().stream()
                .filter(r -> r.app.mode() == SlackMode.EVENTS).toList();
        return events.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(new SlackRoutes(vertx, events, clock));
    }

    /** Whether an app's Socket Mode connection is up (tests and health). */
    public boolean socketConnected(String app) {
        SlackAppRuntime rt = runtimes.get(app);
        return rt != null && rt.socketConnected();
    }

    public void close() {
        runtimes.values().forEach(SlackAppRuntime::close);
    }
}
