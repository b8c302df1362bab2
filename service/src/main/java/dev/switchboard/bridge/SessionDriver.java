package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.Actor;
import dev.switchboard.bridge.engine.Effect;
import dev.switchboard.bridge.engine.Engine;
import dev.switchboard.bridge.engine.Input;
import dev.switchboard.bridge.engine.Session;
import dev.switchboard.bridge.engine.Transition;
import dev.switchboard.bridge.engine.Turn;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.LeaseLost;
import dev.switchboard.bridge.store.Post;
import dev.switchboard.client.A2aAgentClient;
import dev.switchboard.protocol.CallFailure;
import dev.switchboard.log.LogContext;
import dev.switchboard.protocol.kagent.Hitl;
import dev.switchboard.tracing.Tracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the engine for real. Sessions are serial: every input of a thread is handled on that thread's {@link Lanes
 * lane}, where the step's result — session, posts, turn states — is committed to the store before any of its effects
 * runs ({@link EffectRunner}). Calls to the agent are asynchronous; their results come back to the lane as inputs.
 * Time, and the contract's timers, come from a {@link Scheduler}; who drives which session, from a {@link Replication}.
 *
 * <p>Memory is bounded (issue 8): a thread takes at most {@code maxQueuedTurns} turns waiting behind its task, and a
 * thread with nothing in flight — no unfinished turn, no open stream, no pending call or timer — is dropped from
 * memory (its one {@link LiveThread}) after {@code sessionIdleTimeout}; the store has it, and the next input loads it
 * again.
 */
public final class SessionDriver implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SessionDriver.class);

    private final ChatStore store;
    private final ChatPlatforms platforms;
    private final Engine engine;
    private final Clock clock;
    private final Map<String, BindingRuntime> bindings;
    private final Lanes lanes;
    private final BridgeMetrics metrics;
    private final BridgeLimits limits;
    private final EffectRunner effects;
    private final StepReport report;
    private final Replication replication;
    /** every thread held in memory: nothing of a thread is held anywhere else */
    private final LiveThreads live;
    private volatile boolean closed;

    /**
     * @param scheduler the driver's clock and timers (production: {@link Scheduler#vertx}; tests: a virtual clock)
     * @param leases several replicas on PostgreSQL; null with SQLite
     * @param tracing makes the turns' spans when it is on ({@link Tracing#off()}: none)
     */
    public SessionDriver(Vertx vertx, ChatStore store, ChatPlatforms platforms, A2aAgentClient client, Engine engine,
            Scheduler scheduler, MeterRegistry meters, Map<String, BindingRuntime> bindings, int laneCount,
            BridgeLimits limits, SessionLeases leases, Tracing tracing) {
        TurnSpans spans = new TurnSpans(tracing);
        this.limits = limits;
        this.store = store;
        this.platforms = platforms;
        this.engine = engine;
        this.clock = scheduler.clock();
        // kept as given, not copied: a LiveBindings map changes while the service runs (Kubernetes watch mode)
        this.bindings = bindings;
        this.lanes = new Lanes(laneCount);
        Hooks self = new Hooks();
        this.replication = leases == null ? new OneProcess(self, store) : new LeasedReplicas(leases, self, vertx, store,
                platforms, limits);
        this.live = new LiveThreads(store, lanes, scheduler, limits.sessionIdleTimeout(), replication::idle);
        this.metrics = new BridgeMetrics(meters, this.bindings, live::sessions, lanes.executors());
        this.effects = new EffectRunner(vertx, client, scheduler, bindings, spans, metrics, self);
        this.report = new StepReport(metrics, spans);
    }

    /**
     * True while anything of the thread is held in memory: its session, thread, stream, calls, timers, turn start
     * times, spans, last input or unsaved mark — all of them its {@link LiveThread}. A test checks with it that a
     * thread left memory entirely (issue 9, bounded memory).
     */
    public boolean inMemory(String threadId) {
        return live.contains(threadId);
    }

    /** How many threads the driver holds anything of (see {@link #inMemory}). */
    public int threadsInMemory() {
        return live.size();
    }

    /**
     * A session with no turns has nothing a timer could do (every result without an active turn is stale),
     * so its timers go: the session is then free to leave memory.
     */
    private static void cancelTimersIfIdle(LiveThread t, Session session) {
        if (session.idle()) {
            t.cancelTimers();
        }
    }

    public Optional<BindingRuntime> binding(String name) {
        return Optional.ofNullable(bindings.get(name));
    }

    /**
     * B14: every session with unfinished turns is fed {@link Input.Restarted}. With several replicas (PostgreSQL),
     * only the sessions whose lease is free: this replica takes them, and from now on renews its leases, takes over
     * the sessions of replicas that died, and listens for forwarded messages and other replicas' posts.
     */
    public Future<Integer> recover() {
        return replication.recover();
    }

    /**
     * Accepts a person's message into a thread: written (post and session, one transaction) before
     * anything is sent. A repeated messageId returns the post already accepted (B7).
     */
    public Future<Post> accept(ChatThread thread, String messageId, String text, Actor actor) {
        return accept(thread, messageId, text, actor, (String) null, (String) null);
    }

    /**
     * As above, for a message that came with a W3C trace context ({@code traceparent}, {@code tracestate}; null when
     * absent): its turn's calls continue that trace. Without one, the turn starts a trace of its own.
     */
    public Future<Post> accept(ChatThread thread, String messageId, String text, Actor actor, String traceparent,
            String tracestate) {
        return replication.admit(thread, Incoming.message(messageId, text, actor,
                TraceContext.of(traceparent, tracestate, messageId)));
    }

    /**
     * A person's structured answer to the thread's pending kagent-v1 question (the question post {@code questionId}):
     * refused unless that question is the one the thread waits for and the answer fits it; then accepted like a
     * message, {@code text} (what the answer says in words) being what the thread shows.
     */
    public Future<Post> answer(ChatThread thread, String messageId, String questionId, Hitl.Answer answer, String text,
            Actor actor) {
        return replication.admit(thread, Incoming.answer(messageId, questionId, answer, text, actor));
    }

    /** On the thread's lane: takes a message or an answer, or refuses it. */
    private Post take(ChatThread thread, Incoming m) {
        if (m.isAnswer()) {
            return answerNow(thread, m.messageId(), m.questionId(), m.answer(), m.text(), m.actor());
        }
        return admitNow(thread, m.messageId(), m.text(), m.actor(), m.trace(), null);
    }

    private Post answerNow(ChatThread thread, String messageId, String questionId, Hitl.Answer answer, String text,
            Actor actor) {
        Post question = store.post(questionId).filter(p -> p.threadId().equals(thread.threadId())
                && Post.QUESTION.equals(p.kind())).orElseThrow(() -> new TurnRefused.NotTheQuestion(questionId,
                        "no question " + questionId + " in this thread"));
        if (store.post(messageId).isPresent()) {
            return admitNow(thread, messageId, text, actor, null, answer); // the same answer again: its post
        }
        Session session = load(live.remember(thread));
        boolean pending = session.awaitsAnswer() && session.active().map(t -> t.messageId()
                .equals(question.turnMessageId())).orElse(false);
        if (!pending) {
            throw new TurnRefused.NotTheQuestion(questionId, "question " + questionId + " is not waiting for an answer");
        }
        if (question.data() == null) {
            throw new TurnRefused.NotTheQuestion(questionId,
                    "question " + questionId + " takes a typed answer: send it as a message");
        }
        String problem = Hitl.problem(Hitl.parseRequest(question.data()), answer);
        if (problem != null) {
            throw new TurnRefused.NotTheQuestion(questionId, problem);
        }
        // checked and taken in one go on the lane: nothing of the thread can settle the question in between
        return admitNow(thread, messageId, text, actor, null, answer);
    }

    /** A message or a structured answer taken into the thread's session, on its lane. */
    private Post admitNow(ChatThread thread, String messageId, String text, Actor actor, String trace,
            Hitl.Answer structured) {
        Optional<Post> existing = store.post(messageId);
        if (existing.isPresent()) {
            if (!existing.get().threadId().equals(thread.threadId()) || !Post.USER.equals(existing.get().kind())) {
                throw new TurnRefused.MessageIdTaken(messageId);
            }
            return existing.get();
        }
        LiveThread lt = live.remember(thread);
        Instant now = clock.instant();
        lt.input(now);
        Session session = load(lt);
        if (!session.awaitsAnswer() && session.queuedTurns() >= limits.maxQueuedTurns()) {
            throw new TurnRefused.QueueFull(limits.maxQueuedTurns());
        }
        Transition t = engine.step(session, new Input.ChatMessage(messageId, text, actor, trace, structured), now);
        Turn owner = ownerOf(t.session(), messageId);
        String state = owner == null ? "queued" : owner.view().name().toLowerCase(Locale.ROOT);
        Post accepted = new Post(messageId, thread.threadId(), 0, Post.USER, text, actor,
                owner == null ? messageId : owner.messageId(), state, now, now);
        List<Post> changed = metrics.commit(() -> store.commitStep(thread.threadId(), t.session(), t.effects(), accepted, now));
        lt.unsaved(false);
        lt.session(t.session());
        if (owner == null || owner.messageId().equals(messageId)) {
            metrics.turnStarted(thread.binding());
            lt.turnStarted(messageId, now);
        }
        observe(lt, session, t, now);
        changed.forEach(p -> platforms.show(thread, p));
        run(lt, t);
        cancelTimersIfIdle(lt, t.session());
        return changed.get(0);
    }

    /**
     * Whether the thread's session waits for the answer to a question: a platform on which people talk among
     * themselves in a thread (Slack) gives the agent only the messages meant for it, and the next message after
     * a question is one (the seed's rule). Read on the thread's lane, so it is in order with the thread's inputs.
     */
    public Future<Boolean> awaitsAnswer(String threadId) {
        return onLane(threadId, () -> {
            if (store.thread(threadId).isEmpty() && !live.contains(threadId)) {
                return false;
            }
            return load(live.load(threadId)).awaitsAnswer();
        });
    }

    /** The turn a message belongs to: its own, or the turn whose question it answers. */
    private static Turn ownerOf(Session session, String messageId) {
        for (Turn turn : session.turns()) {
            if (turn.messageId().equals(messageId) || turn.answerMessageIds().contains(messageId)) {
                return turn;
            }
        }
        return null;
    }

    /** Feeds an input to a thread's session on its lane. */
    public void submit(String threadId, Input input) {
        if (closed) {
            return;
        }
        onLane(threadId, () -> {
            step(threadId, input);
            return null;
        }).onFailure(e -> {
            try (LogContext ids = ids(threadId)) {
                LOG.error("bridge: session {} failed on {}: {}", threadId, input.getClass().getSimpleName(), withCause(e));
            }
        });
    }

    /** The ids of a thread for its log lines: the thread, its binding and the binding's agent, when known. */
    private LogContext ids(String threadId) {
        LogContext ids = LogContext.thread(threadId);
        LiveThread t = live.get(threadId);
        if (t != null) {
            ids.and(LogContext.BINDING, t.thread().binding());
            BindingRuntime b = bindings.get(t.thread().binding());
            if (b != null) {
                ids.and(LogContext.AGENT, b.spec().backendRef());
            }
        }
        return ids;
    }

    /** A failure with its root cause (a store failure wraps the database's words, which say what went wrong). */
    static String withCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? e.toString() : e + " (" + root + ")";
    }

    /** Steps the thread's session with an input, on its lane. */
    private void step(String threadId, Input input) {
        if (!replication.drives(threadId)) {
            live.forget(threadId); // another replica drives it: a late result, event or timer of this one is dropped
            return;
        }
        Instant now = clock.instant();
        LiveThread lt = live.load(threadId);
        lt.input(now);
        if (input instanceof Input.Restarted && !bindings.containsKey(lt.thread().binding())) {
            input = new Input.BindingRemoved(); // nothing to recover with: the turns end with the notice
        }
        Session session = input instanceof Input.ChatMessage ? load(lt) : loadEvenIfUnbound(lt);
        Transition t = engine.step(session, input, now);
        if (t.effects().isEmpty() && t.session().gen() == session.gen()) {
            // Nothing to run and nothing shown: not worth a transaction. But the step may still have
            // moved the session on (an event pushes the silence deadline back; a task read again and
            // still in auth-required goes back to paused), so the session in memory is the new one.
            if (!t.session().changedOnlyByStreaming(session)) {
                lt.unsaved(true); // the next commit must write the session, even a chunk's
            }
            lt.session(t.session());
            cancelTimersIfIdle(lt, t.session());
            return;
        }
        // a streamed chunk updates one post (issue 9): when all the step shows is answers, and the session
        // changed only in the answer and the stream's liveness, the answer post carries the change
        boolean saveSession = lt.unsaved() || t.session().gen() != session.gen()
                || !t.effects().stream().allMatch(Effect.ShowAnswer.class::isInstance)
                || !t.session().changedOnlyByStreaming(session);
        List<Post> changed;
        try {
            changed = metrics.commit(() -> store.commitStep(threadId, t.session(), t.effects(), null, now, saveSession));
        } catch (LeaseLost e) {
            try (LogContext ids = ids(threadId)) {
                LOG.info("bridge: {}; the session leaves this replica", e.getMessage());
            }
            replication.lost(threadId);
            return;
        }
        if (saveSession) {
            lt.unsaved(false);
        }
        lt.session(t.session());
        observe(lt, session, t, now);
        changed.forEach(p -> platforms.show(lt.thread(), p));
        run(lt, t);
        cancelTimersIfIdle(lt, t.session());
    }

    /**
     * What comes for a thread whose Binding was removed while it was in memory (the removal itself, a late result)
     * finds its session as it was; only a new message is refused.
     */
    private Session loadEvenIfUnbound(LiveThread lt) {
        if (bindings.containsKey(lt.thread().binding())) {
            return load(lt);
        }
        Session cached = lt.session();
        return cached != null ? cached : store.session(lt.id())
                .orElseThrow(() -> new TurnRefused.BindingGone(lt.id(), lt.thread().binding()));
    }

    /**
     * Watch mode: these Bindings were removed. Every thread of theirs held in memory with an unfinished turn ends
     * its turns now, with a notice (instead of retrying an agent that is no longer configured).
     */
    public void bindingsRemoved(Set<String> names) {
        if (names.isEmpty()) {
            return;
        }
        live.all().forEach(t -> {
            Session s = t.session();
            if (names.contains(t.thread().binding()) && s != null && !s.turns().isEmpty()) {
                submit(t.id(), new Input.BindingRemoved());
            }
        });
    }

    private Session load(LiveThread lt) {
        Session cached = lt.session();
        ChatThread thread = lt.thread();
        BindingRuntime binding = bindings.get(thread.binding());
        if (binding == null) {
            throw new TurnRefused.BindingGone(lt.id(), thread.binding());
        }
        Session session = cached != null ? cached : store.session(lt.id()).orElseGet(() -> new Session(lt.id(),
                thread.platform(), binding.dialect(),
                binding.spec().questionsAllowed(), binding.spec().questionTimeout(), binding.fingerprint()));
        return session.withSettings(binding.spec().questionsAllowed(), binding.spec().questionTimeout(),
                binding.fingerprint());
    }

    /** What a committed step tells the bridge's meters, traces and log. */
    private void observe(LiveThread lt, Session before, Transition t, Instant now) {
        report.report(lt, effects.where(lt), before, t, now, () -> ids(lt.id()));
    }

    private void run(LiveThread lt, Transition t) {
        for (Effect e : t.effects()) {
            try {
                effects.run(lt, t.session(), e);
            } catch (RuntimeException ex) {
                try (LogContext ids = ids(lt.id())) {
                    LOG.error("bridge: effect {} of session {} failed: {}", e.getClass().getSimpleName(), lt.id(),
                            ex.toString());
                }
            }
        }
    }

    private <T> Future<T> onLane(String key, Supplier<T> work) {
        return lanes.run(key, work);
    }

    /** This replica's leases (several replicas on PostgreSQL); null with SQLite. */
    public SessionLeases leases() {
        return replication.leases();
    }

    /**
     * For tests: the replica dies as a SIGKILLed process would, in this JVM. It stops renewing its leases, listening,
     * taking sessions over and running its lanes; its streams are cut; it lets no lease go, so the others wait for
     * them to expire.
     */
    public void dieForTest() {
        closed = true;
        replication.stop();
        live.stop();
        lanes.shutdownNow();
        live.all().forEach(LiveThread::drop);
    }

    @Override
    public void close() {
        if (closed) {
            return; // died for a test, or closed already
        }
        closed = true;
        replication.stop();
        live.stop();
        live.all().forEach(LiveThread::closeStream);
        lanes.shutdown();
        replication.letAllGo();
    }

    /** What the replication may do with this driver, and where the effects' results come back. */
    private final class Hooks implements Replication.Driver, EffectRunner.Results {
        @Override
        public void callResult(String threadId, Input.Call call, CallFailure failure, Input input) {
            LiveThread t = live.get(threadId);
            if (t != null) {
                metrics.agentCall(t.thread().binding(), call, failure);
            }
            SessionDriver.this.submit(threadId, input);
        }

        @Override
        public <T> Future<T> onLane(String key, Supplier<T> work) {
            return lanes.run(key, work);
        }

        @Override
        public Post take(ChatThread thread, Incoming message) {
            return SessionDriver.this.take(thread, message);
        }

        @Override
        public void submit(String threadId, Input input) {
            SessionDriver.this.submit(threadId, input);
        }

        @Override
        public void step(String threadId, Input input) {
            SessionDriver.this.step(threadId, input);
        }

        @Override
        public ChatThread thread(String threadId) {
            return live.load(threadId).thread();
        }

        @Override
        public void remember(ChatThread thread) {
            live.remember(thread);
        }

        @Override
        public void forget(String threadId) {
            live.forget(threadId);
        }

        @Override
        public boolean inMemory(String threadId) {
            return SessionDriver.this.inMemory(threadId);
        }

        @Override
        public boolean closed() {
            return closed;
        }

        @Override
        public LogContext ids(String threadId) {
            return SessionDriver.this.ids(threadId);
        }
    }
}
