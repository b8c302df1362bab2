package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.Actor;
import dev.switchboard.bridge.engine.Effect;
import dev.switchboard.bridge.engine.Engine;
import dev.switchboard.bridge.engine.Input;
import dev.switchboard.bridge.engine.Outcome;
import dev.switchboard.bridge.engine.Session;
import dev.switchboard.bridge.engine.Transition;
import dev.switchboard.bridge.engine.Turn;
import dev.switchboard.bridge.engine.TurnView;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;
import dev.switchboard.client.A2aAgentClient;
import dev.switchboard.client.AgentEndpoint;
import dev.switchboard.client.CallException;
import dev.switchboard.client.StreamHandle;
import dev.switchboard.client.StreamListener;
import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.kagent.Hitl;
import dev.switchboard.protocol.model.ListTasksParams;
import dev.switchboard.protocol.model.SendMessageParams;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.tracing.Tracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import dev.switchboard.log.LogContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the engine for real. Sessions are serial: every input of a thread is handled on that
 * thread's lane (one of a few single-threaded executors), where the step's result — session, posts,
 * turn states — is committed to the store before any of its effects runs. Calls to the agent are
 * asynchronous; their results come back to the lane as inputs.
 *
 * <p>Memory is bounded (issue 8): a thread takes at most {@code maxQueuedTurns} turns waiting behind its task,
 * and a session with nothing in flight — no unfinished turn, no open stream, no pending call or timer — is
 * dropped from memory after {@code sessionIdleTimeout}; the store has it, and the next input loads it again.
 */
public final class SessionDriver implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SessionDriver.class);
    private static final int LIST_PAGE_SIZE = 100;
    /** ListTasks must return history, or every turn looks absent; this asks for plenty of it. */
    private static final int LIST_HISTORY = 1000;

    private final Vertx vertx;
    private final ChatStore store;
    private final ChatPlatforms platforms;
    private final A2aAgentClient client;
    private final Engine engine;
    private final Clock clock;
    private final MeterRegistry meters;
    private final Map<String, BindingRuntime> bindings;
    private final ThreadPoolExecutor[] lanes;
    private final BridgeMetrics metrics;
    /** when each unfinished turn of a thread in memory was accepted, for the turn duration histogram */
    private final ConcurrentHashMap<String, Map<String, Instant>> turnStarts = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Session> sessions = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, ChatThread> threads = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, StreamHandle> streams = new ConcurrentHashMap<>();
    /** calls of a thread whose result has not come back yet */
    private final ConcurrentHashMap<String, Integer> inFlight = new ConcurrentHashMap<>();
    /** timers of a thread that have not fired; scheduled and cancelled on the thread's lane */
    private final ConcurrentHashMap<String, java.util.Set<PendingTimer>> timers = new ConcurrentHashMap<>();
    /** threads whose session in memory changed in a step that was not committed, beyond what a chunk changes */
    private final java.util.Set<String> unsaved = ConcurrentHashMap.newKeySet();
    /** when each thread in memory last had an input */
    private final ConcurrentHashMap<String, Instant> lastInput = new ConcurrentHashMap<>();
    private final BridgeLimits limits;
    private final long sweepTimer;
    private volatile boolean closed;
    /** several replicas on PostgreSQL: the leases of this replica's sessions (issue 12); null with SQLite */
    private final SessionLeases leases;
    /** renews the leases and takes over the sessions of dead replicas; null with SQLite */
    private java.util.concurrent.ScheduledExecutorService replicaTimers;
    /** the turns' spans and the trace context of every call */
    private final TurnSpans spans;

    public SessionDriver(Vertx vertx, ChatStore store, ChatPlatforms platforms, A2aAgentClient client, Engine engine,
            Clock clock, MeterRegistry meters, Map<String, BindingRuntime> bindings, int laneCount, BridgeLimits limits) {
        this(vertx, store, platforms, client, engine, clock, meters, bindings, laneCount, limits, null, Tracing.off());
    }

    /**
     * @param leases several replicas on PostgreSQL; null with SQLite
     * @param tracing makes the turns' spans when it is on ({@link Tracing#off()}: none)
     */
    public SessionDriver(Vertx vertx, ChatStore store, ChatPlatforms platforms, A2aAgentClient client, Engine engine,
            Clock clock, MeterRegistry meters, Map<String, BindingRuntime> bindings, int laneCount, BridgeLimits limits,
            SessionLeases leases, Tracing tracing) {
        this.spans = new TurnSpans(tracing);
        this.vertx = vertx;
        this.leases = leases;
        this.limits = limits;
        this.store = store;
        this.platforms = platforms;
        this.client = client;
        this.engine = engine;
        this.clock = clock;
        this.meters = meters;
        // kept as given, not copied: a LiveBindings map changes while the service runs (Kubernetes watch mode)
        this.bindings = bindings;
        this.lanes = new ThreadPoolExecutor[laneCount];
        for (int i = 0; i < laneCount; i++) {
            int n = i;
            // a plain single-thread pool, so that its queue's depth can be a gauge
            lanes[i] = new ThreadPoolExecutor(1, 1, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, "bridge-lane-" + n);
                t.setDaemon(true);
                return t;
            });
        }
        this.metrics = new BridgeMetrics(meters, this.bindings, sessions::size, lanes);
        long idle = limits.sessionIdleTimeout().toMillis();
        this.sweepTimer = vertx.setPeriodic(Math.max(10, Math.min(idle / 2, 60_000)), id -> evictIdle());
    }

    /**
     * True while anything of the thread is held in memory: its session, thread, stream, calls, timers, turn start
     * times, last input or unsaved mark. Every per-thread map of the driver is here, so that a test can check
     * that a thread left memory entirely (issue 9, bounded memory).
     */
    public boolean inMemory(String threadId) {
        return sessions.containsKey(threadId) || threads.containsKey(threadId) || streams.containsKey(threadId)
                || inFlight.containsKey(threadId) || timers.containsKey(threadId) || lastInput.containsKey(threadId)
                || turnStarts.containsKey(threadId) || unsaved.contains(threadId) || spans.holds(threadId);
    }

    /** How many threads the driver holds anything of (see {@link #inMemory}). */
    public int threadsInMemory() {
        java.util.Set<String> ids = new java.util.HashSet<>(sessions.keySet());
        ids.addAll(threads.keySet());
        ids.addAll(streams.keySet());
        ids.addAll(inFlight.keySet());
        ids.addAll(timers.keySet());
        ids.addAll(lastInput.keySet());
        ids.addAll(turnStarts.keySet());
        ids.addAll(unsaved);
        ids.addAll(spans.threads());
        return ids.size();
    }

    /** Forgets every session idle for the timeout, each on its own lane so no input races the check. */
    private void evictIdle() {
        if (closed) {
            return;
        }
        java.util.Set<String> ids = new java.util.HashSet<>(sessions.keySet());
        ids.addAll(threads.keySet());
        ids.addAll(lastInput.keySet());
        ids.addAll(turnStarts.keySet());
        for (String threadId : ids) {
            onLane(threadId, () -> {
                Session s = sessions.get(threadId);
                Instant last = lastInput.get(threadId);
                boolean quiet = last == null || !last.plus(limits.sessionIdleTimeout()).isAfter(clock.instant());
                if ((s == null || s.idle()) && quiet && !streams.containsKey(threadId) && !inFlight.containsKey(threadId)
                        && !timers.containsKey(threadId)) {
                    sessions.remove(threadId);
                    threads.remove(threadId);
                    turnStarts.remove(threadId);
                    lastInput.remove(threadId);
                    unsaved.remove(threadId);
                    spans.forget(threadId);
                    if (leases != null && leases.holds(threadId)) {
                        leases.release(threadId); // whichever replica a message reaches next takes it
                    }
                }
                return null;
            });
        }
    }

    /** A timer asked for by a step; its id is known once it is set. */
    private static final class PendingTimer {
        volatile long id = -1;
    }

    /**
     * A session with no turns has nothing a timer could do (every result without an active turn is stale),
     * so its timers go: the session is then free to leave memory.
     */
    private void cancelTimersIfIdle(String threadId, Session session) {
        if (!session.idle()) {
            return;
        }
        java.util.Set<PendingTimer> pending = timers.remove(threadId);
        if (pending != null) {
            pending.forEach(p -> vertx.cancelTimer(p.id));
        }
    }

    private void hold(String threadId) {
        inFlight.merge(threadId, 1, Integer::sum);
    }

    private void release(String threadId) {
        inFlight.computeIfPresent(threadId, (k, n) -> n <= 1 ? null : n - 1);
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
        if (leases != null) {
            return onLane("recover", () -> {
                leases.listen(this::postElsewhere, this::inboxArrived);
                long ms = leases.leaseDuration().toMillis();
                replicaTimers = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "bridge-leases");
                    t.setDaemon(true);
                    return t;
                });
                replicaTimers.scheduleAtFixedRate(this::renewLeases, Math.max(1, ms / 3), Math.max(1, ms / 3),
                        TimeUnit.MILLISECONDS);
                replicaTimers.scheduleWithFixedDelay(this::takeOver, Math.max(1, ms / 2), Math.max(1, ms / 2),
                        TimeUnit.MILLISECONDS);
                return leases.orphans();
            }).compose(orphans -> {
                List<Future<Boolean>> taken = orphans.stream().filter(SessionLeases.Orphan::pending)
                        .map(o -> onLane(o.threadId(), () -> ownOrTake(o.threadId()))).toList();
                return Future.join(taken).transform(ar -> Future.succeededFuture(
                        (int) taken.stream().filter(f -> f.succeeded() && f.result()).count()));
            });
        }
        return onLane("recover", () -> {
            Map<String, Session> pending = store.pendingSessions();
            pending.keySet().forEach(id -> submit(id, new Input.Restarted()));
            return pending.size();
        });
    }

    /**
     * Accepts a person's message into a thread: written (post and session, one transaction) before
     * anything is sent. A repeated messageId returns the post already accepted (B7).
     */
    public Future<Post> accept(ChatThread thread, String messageId, String text, Actor actor) {
        return accept(thread, messageId, text, actor, (String) null, (String) null);
    }

    /**
     * A person's structured answer to the thread's pending kagent-v1 question (the question post {@code questionId}):
     * refused unless that question is the one the thread waits for and the answer fits it; then accepted like a
     * message, {@code text} (what the answer says in words) being what the thread shows.
     */
    public Future<Post> answer(ChatThread thread, String messageId, String questionId, Hitl.Answer answer, String text,
            Actor actor) {
        if (leases == null) {
            return onLane(thread.threadId(), () -> answerNow(thread, messageId, questionId, answer, text, actor));
        }
        return admitOrForward(thread, new SessionLeases.Inbound(messageId, thread.threadId(), text, actor, null, questionId,
                Hitl.write(answer)));
    }

    private Post answerNow(ChatThread thread, String messageId, String questionId, Hitl.Answer answer, String text,
            Actor actor) {
        {
            Post question = store.post(questionId).filter(p -> p.threadId().equals(thread.threadId())
                    && Post.QUESTION.equals(p.kind())).orElseThrow(() -> new TurnRefused.NotTheQuestion(questionId,
                            "no question " + questionId + " in this thread"));
            if (store.post(messageId).isPresent()) {
                return admitNow(thread, messageId, text, actor, null, answer); // the same answer again: its post
            }
            threads.putIfAbsent(thread.threadId(), thread);
            Session session = load(thread.threadId());
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
    }

    /**
     * As above, for a message that came with a W3C trace context ({@code traceparent}, {@code tracestate}; null when
     * absent): its turn's calls continue that trace. Without one, the turn starts a trace of its own.
     */
    public Future<Post> accept(ChatThread thread, String messageId, String text, Actor actor, String traceparent,
            String tracestate) {
        return admit(thread, messageId, text, actor, TraceContext.of(traceparent, tracestate), null);
    }

    /** Accepts a message or a structured answer into the thread's session, on its lane. */
    private Future<Post> admit(ChatThread thread, String messageId, String text, Actor actor, String trace,
            Hitl.Answer structured) {
        if (leases == null) {
            return onLane(thread.threadId(), () -> admitNow(thread, messageId, text, actor, trace, structured));
        }
        return admitOrForward(thread, new SessionLeases.Inbound(messageId, thread.threadId(), text, actor, trace, null,
                null));
    }

    // ================= several replicas (PostgreSQL, issue 12) =================

    /** Takes a message here, or in the thread's owner's inbox when another replica holds the lease. */
    private Future<Post> admitOrForward(ChatThread thread, SessionLeases.Inbound m) {
        String threadId = thread.threadId();
        if (leases == null) {
            return onLane(threadId, () -> acceptHere(thread, m));
        }
        return onLane(threadId, () -> {
            Optional<Post> existing = store.post(m.messageId());
            if (existing.isPresent() && !leases.holds(threadId)) {
                return checkedRepeat(thread, existing.get()); // B7, whoever drives the thread
            }
            threads.putIfAbsent(threadId, thread);
            if (ownOrTake(threadId)) {
                return acceptHere(thread, m);
            }
            leases.forward(m);
            return (Post) null;
        }).compose(p -> p != null ? Future.succeededFuture(p) : awaitForwarded(thread, m, System.nanoTime(), 0));
    }

    private Post acceptHere(ChatThread thread, SessionLeases.Inbound m) {
        try {
            if (m.questionId() != null) {
                return answerNow(thread, m.messageId(), m.questionId(), Hitl.parseAnswer(m.answer()), m.text(), m.actor());
            }
            return admitNow(thread, m.messageId(), m.text(), m.actor(), m.trace(), null);
        } catch (dev.switchboard.bridge.store.LeaseLost e) {
            forget(thread.threadId());
            leases.release(thread.threadId());
            throw e;
        }
    }

    private static Post checkedRepeat(ChatThread thread, Post existing) {
        if (!existing.threadId().equals(thread.threadId()) || !(Post.USER.equals(existing.kind()))) {
            throw new TurnRefused.MessageIdTaken(existing.id());
        }
        return existing;
    }

    /**
     * Waits for the owner to accept (the post is there) or refuse a forwarded message; the message is durable in the
     * inbox already. When the lease becomes free meanwhile (the owner died or let the session go), takes it and
     * accepts the thread's inbox here.
     */
    private Future<Post> awaitForwarded(ChatThread thread, SessionLeases.Inbound m, long since, int tick) {
        long limit = Math.max(30_000, leases.leaseDuration().toMillis() * 4);
        if (closed) {
            return Future.failedFuture(new IllegalStateException("the bridge is shutting down"));
        }
        Promise<Post> promise = Promise.promise();
        vertx.setTimer(tick == 0 ? 20 : 100, id -> vertx.<Post>executeBlocking(() -> {
            Optional<Post> post = store.post(m.messageId());
            if (post.isPresent()) {
                return checkedRepeat(thread, post.get());
            }
            SessionLeases.Refusal r = leases.takeRefusal(m.messageId());
            if (r != null) {
                throw refusal(thread, m, r);
            }
            return null;
        }, false).compose(p -> p != null || tick % 5 != 4 ? Future.succeededFuture(p) : onLane(thread.threadId(), () -> {
            // the owner may be gone, or have let the session go: the lease is free then, and the inbox is taken here
            ownOrTake(thread.threadId());
            return (Post) null;
        })).onComplete(ar -> {
            if (ar.failed()) {
                promise.fail(ar.cause());
            } else if (ar.result() != null) {
                promise.complete(ar.result());
            } else if (System.nanoTime() - since > limit * 1_000_000L) {
                promise.fail(new IllegalStateException("the replica that drives thread " + thread.threadId()
                        + " did not take the message in time; it is kept and will be taken"));
            } else {
                awaitForwarded(thread, m, since, tick + 1).onComplete(promise);
            }
        }));
        return promise.future();
    }

    private TurnRefused refusal(ChatThread thread, SessionLeases.Inbound m, SessionLeases.Refusal r) {
        return switch (r.kind()) {
            case "QueueFull" -> new TurnRefused.QueueFull(limits.maxQueuedTurns());
            case "NotTheQuestion" -> new TurnRefused.NotTheQuestion(m.questionId(), r.text());
            case "BindingGone" -> new TurnRefused.BindingGone(thread.threadId(), thread.binding());
            default -> new TurnRefused.MessageIdTaken(m.messageId());
        };
    }

    /** On the thread's lane, holding its lease: accepts (or refuses) every message forwarded to it, oldest first. */
    private void drainInbox(String threadId) {
        for (SessionLeases.Inbound m : leases.inbox(threadId)) {
            try {
                acceptHere(thread(threadId), m);
                leases.accepted(m.messageId());
            } catch (TurnRefused e) {
                leases.refused(m.messageId(), e.getClass().getSimpleName(), e.getMessage());
            } catch (RuntimeException e) {
                try (LogContext ids = ids(threadId)) {
                    LOG.warn("bridge: a message forwarded to thread {} was not taken yet: {}", threadId, e.toString());
                }
                return;
            }
        }
    }

    /** The listener: a message was forwarded to a thread; this replica takes it when it drives the thread. */
    private void inboxArrived(String threadId) {
        if (!closed && leases.holds(threadId)) {
            onLane(threadId, () -> {
                if (leases.holds(threadId)) {
                    drainInbox(threadId);
                }
                return null;
            });
        }
    }

    /**
     * The listener: another replica changed a post; this replica's live views show it. A null post is one whose id was
     * too long for a notification ({@link dev.switchboard.bridge.store.PostNotification}): the thread's posts are all
     * shown again (a view takes a post it has as an update of it).
     */
    private void postElsewhere(String threadId, String postId) {
        if (!platforms.watchedHere(threadId)) {
            return; // nobody here shows the thread live: nothing to read
        }
        if (postId == null) {
            store.thread(threadId).ifPresent(t -> store.posts(threadId).forEach(p -> platforms.showElsewhere(t, p)));
            return;
        }
        store.post(threadId, postId).ifPresent(p -> store.thread(threadId).ifPresent(t -> platforms.showElsewhere(t, p)));
    }

    /** Renews this replica's leases; a session whose lease is lost leaves this replica (another drives it now). */
    private void renewLeases() {
        if (closed) {
            return;
        }
        try {
            for (String threadId : leases.renew()) {
                try (LogContext ids = LogContext.thread(threadId)) {
                    LOG.info("bridge: replica {} lost the lease of thread {}", leases.replicaId(), threadId);
                }
                onLane(threadId, () -> {
                    forget(threadId);
                    return null;
                });
            }
            // a lease taken for a thread that then never came into memory (a refused message) is let go
            for (String threadId : leases.held()) {
                onLane(threadId, () -> {
                    if (leases.holds(threadId) && !inMemory(threadId)) {
                        leases.release(threadId);
                    }
                    return null;
                });
            }
        } catch (RuntimeException e) {
            LOG.warn("bridge: cannot renew the sessions' leases: {}", withCause(e));
        }
    }

    /**
     * Takes the sessions no live replica drives: each one with unfinished turns is recovered as after a restart (B14),
     * and messages forwarded to a thread whose owner is gone are taken. Returns how many sessions were recovered.
     */
    private int takeOver() {
        if (closed) {
            return 0;
        }
        int found = 0;
        try {
            for (SessionLeases.Orphan o : leases.orphans()) {
                if (closed) {
                    break;
                }
                found++;
                onLane(o.threadId(), () -> ownOrTake(o.threadId())).onFailure(e -> {
                    try (LogContext ids = LogContext.thread(o.threadId())) {
                        LOG.warn("bridge: cannot take thread {} over: {}", o.threadId(), e.toString());
                    }
                });
            }
        } catch (RuntimeException e) {
            LOG.warn("bridge: cannot look for sessions to take over: {}", e.toString());
        }
        return found;
    }

    /**
     * On the thread's lane: true when this replica drives the thread, taking its lease when it is free. A session
     * taken so, with unfinished turns, was driven by a replica that died or let it go: it is recovered as after a
     * restart (B14, {@link Input.Restarted}) before anything else, then the messages forwarded to it are taken.
     */
    private boolean ownOrTake(String threadId) {
        if (leases.holds(threadId)) {
            return true;
        }
        if (closed || !leases.acquire(threadId)) {
            return false;
        }
        forget(threadId); // whatever this replica held of it is older than the store
        Session stored = store.session(threadId).orElse(null);
        if (stored != null && !stored.idle()) {
            try (LogContext ids = ids(threadId)) {
                LOG.info("bridge: replica {} takes over thread {}", leases.replicaId(), threadId);
            }
            step(threadId, new Input.Restarted());
        }
        drainInbox(threadId);
        return true;
    }

    /**
     * Drops everything this replica holds of a thread: its session, streams, timers, pending calls (their results are
     * dropped: {@link #submit} steps only sessions whose lease this replica holds). On the thread's lane.
     */
    private void forget(String threadId) {
        StreamHandle h = streams.remove(threadId);
        if (h != null) {
            h.close();
        }
        java.util.Set<PendingTimer> pending = timers.remove(threadId);
        if (pending != null) {
            pending.forEach(p -> vertx.cancelTimer(p.id));
        }
        sessions.remove(threadId);
        threads.remove(threadId);
        inFlight.remove(threadId);
        turnStarts.remove(threadId);
        lastInput.remove(threadId);
        unsaved.remove(threadId);
        spans.forget(threadId); // the replica that drives the session now ends its turns' spans
    }

    /** This replica's leases (several replicas on PostgreSQL); null with SQLite. */
    public SessionLeases leases() {
        return leases;
    }

    /**
     * For tests: the replica dies as a SIGKILLed process would, in this JVM. It stops renewing its leases, listening,
     * taking sessions over and running its lanes; its streams are cut; it lets no lease go, so the others wait for
     * them to expire.
     */
    public void dieForTest() {
        closed = true;
        if (replicaTimers != null) {
            replicaTimers.shutdownNow();
        }
        if (leases != null) {
            leases.close();
        }
        vertx.cancelTimer(sweepTimer);
        for (ThreadPoolExecutor lane : lanes) {
            lane.shutdownNow();
        }
        streams.values().forEach(StreamHandle::close);
        timers.values().forEach(set -> set.forEach(p -> vertx.cancelTimer(p.id)));
    }

    /** {@link #admit}'s work, on the thread's lane. */
    private Post admitNow(ChatThread thread, String messageId, String text, Actor actor, String trace,
            Hitl.Answer structured) {
        Optional<Post> existing = store.post(messageId);
        if (existing.isPresent()) {
            if (!existing.get().threadId().equals(thread.threadId()) || !Post.USER.equals(existing.get().kind())) {
                throw new TurnRefused.MessageIdTaken(messageId);
            }
            return existing.get();
        }
        threads.putIfAbsent(thread.threadId(), thread);
        Instant now = clock.instant();
        lastInput.put(thread.threadId(), now);
        Session session = load(thread.threadId());
        if (!session.awaitsAnswer() && session.queuedTurns() >= limits.maxQueuedTurns()) {
            throw new TurnRefused.QueueFull(limits.maxQueuedTurns());
        }
        Transition t = engine.step(session, new Input.ChatMessage(messageId, text, actor, trace, structured), now);
        Turn owner = ownerOf(t.session(), messageId);
        String state = owner == null ? "queued" : owner.view().name().toLowerCase(Locale.ROOT);
        Post accepted = new Post(messageId, thread.threadId(), 0, Post.USER, text, actor,
                owner == null ? messageId : owner.messageId(), state, now, now);
        List<Post> changed = metrics.commit(() -> store.commitStep(thread.threadId(), t.session(), t.effects(), accepted, now));
        unsaved.remove(thread.threadId());
        sessions.put(thread.threadId(), t.session());
        if (owner == null || owner.messageId().equals(messageId)) {
            metrics.turnStarted(thread.binding());
            turnStarts.computeIfAbsent(thread.threadId(), k -> new ConcurrentHashMap<>()).put(messageId, now);
        }
        observe(thread.threadId(), session, t, now);
        changed.forEach(p -> platforms.show(thread, p));
        run(thread.threadId(), t);
        cancelTimersIfIdle(thread.threadId(), t.session());
        return changed.get(0);
    }

    /**
     * Whether the thread's session waits for the answer to a question: a platform on which people talk among
     * themselves in a thread (Slack) gives the agent only the messages meant for it, and the next message after
     * a question is one (the seed's rule). Read on the thread's lane, so it is in order with the thread's inputs.
     */
    public Future<Boolean> awaitsAnswer(String threadId) {
        return onLane(threadId, () -> {
            if (store.thread(threadId).isEmpty() && !threads.containsKey(threadId)) {
                return false;
            }
            return load(threadId).awaitsAnswer();
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

    /** A failure with its root cause (a store failure wraps the database's words, which say what went wrong). */
    /** The ids of a thread for its log lines: the thread, its binding and the binding's agent, when known. */
    private LogContext ids(String threadId) {
        LogContext ids = LogContext.thread(threadId);
        ChatThread t = threads.get(threadId);
        if (t != null) {
            ids.and(LogContext.BINDING, t.binding());
            BindingRuntime b = bindings.get(t.binding());
            if (b != null) {
                ids.and(LogContext.AGENT, b.spec().backendRef());
            }
        }
        return ids;
    }

    private static String withCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? e.toString() : e + " (" + root + ")";
    }

    /** Steps the thread's session with an input, on its lane. */
    private void step(String threadId, Input input) {
        {
            if (leases != null && !leases.holds(threadId)) {
                forget(threadId); // another replica drives it: a late result, event or timer of this one is dropped
                return;
            }
            Instant now = clock.instant();
            lastInput.put(threadId, now);
            if (input instanceof Input.Restarted && !bindings.containsKey(thread(threadId).binding())) {
                input = new Input.BindingRemoved(); // nothing to recover with: the turns end with the notice
            }
            Session session = input instanceof Input.ChatMessage ? load(threadId) : loadEvenIfUnbound(threadId);
            Transition t = engine.step(session, input, now);
            if (t.effects().isEmpty() && t.session().gen() == session.gen()) {
                // Nothing to run and nothing shown: not worth a transaction. But the step may still have
                // moved the session on (an event pushes the silence deadline back; a task read again and
                // still in auth-required goes back to paused), so the session in memory is the new one.
                if (!t.session().changedOnlyByStreaming(session)) {
                    unsaved.add(threadId); // the next commit must write the session, even a chunk's
                }
                sessions.put(threadId, t.session());
                cancelTimersIfIdle(threadId, t.session());
                return;
            }
            // a streamed chunk updates one post (issue 9): when all the step shows is answers, and the session
            // changed only in the answer and the stream's liveness, the answer post carries the change
            boolean saveSession = unsaved.contains(threadId) || t.session().gen() != session.gen()
                    || !t.effects().stream().allMatch(Effect.ShowAnswer.class::isInstance)
                    || !t.session().changedOnlyByStreaming(session);
            List<Post> changed;
            try {
                changed = metrics.commit(() -> store.commitStep(threadId, t.session(), t.effects(), null, now,
                        saveSession));
            } catch (dev.switchboard.bridge.store.LeaseLost e) {
                try (LogContext ids = ids(threadId)) {
                    LOG.info("bridge: {}; the session leaves this replica", e.getMessage());
                }
                forget(threadId);
                leases.release(threadId);
                return;
            }
            if (saveSession) {
                unsaved.remove(threadId);
            }
            sessions.put(threadId, t.session());
            observe(threadId, session, t, now);
            changed.forEach(p -> platforms.show(thread(threadId), p));
            run(threadId, t);
            cancelTimersIfIdle(threadId, t.session());
        }
    }

    /**
     * What comes for a thread whose Binding was removed while it was in memory (the removal itself, a late result)
     * finds its session as it was; only a new message is refused.
     */
    private Session loadEvenIfUnbound(String threadId) {
        if (bindings.containsKey(thread(threadId).binding())) {
            return load(threadId);
        }
        Session cached = sessions.get(threadId);
        return cached != null ? cached : store.session(threadId)
                .orElseThrow(() -> new TurnRefused.BindingGone(threadId, thread(threadId).binding()));
    }

    /**
     * Watch mode: these Bindings were removed. Every thread of theirs held in memory with an unfinished turn ends
     * its turns now, with a notice (instead of retrying an agent that is no longer configured).
     */
    public void bindingsRemoved(java.util.Set<String> names) {
        if (names.isEmpty()) {
            return;
        }
        threads.forEach((threadId, thread) -> {
            Session s = sessions.get(threadId);
            if (names.contains(thread.binding()) && s != null && !s.turns().isEmpty()) {
                submit(threadId, new Input.BindingRemoved());
            }
        });
    }

    private Session load(String threadId) {
        Session cached = sessions.get(threadId);
        ChatThread thread = thread(threadId);
        BindingRuntime binding = bindings.get(thread.binding());
        if (binding == null) {
            throw new TurnRefused.BindingGone(threadId, thread.binding());
        }
        Session session = cached != null ? cached : store.session(threadId).orElseGet(() -> new Session(threadId,
                platforms.label(thread.platform()), binding.dialect(),
                binding.spec().questionsAllowed(), binding.spec().questionTimeout(), binding.fingerprint()));
        return session.withSettings(binding.spec().questionsAllowed(), binding.spec().questionTimeout(),
                binding.fingerprint());
    }

    private ChatThread thread(String threadId) {
        return threads.computeIfAbsent(threadId, id -> store.thread(id)
                .orElseThrow(() -> new IllegalStateException("unknown thread " + id)));
    }

    /** What a committed step tells the bridge's meters and traces: turns finished, resends, cancels. */
    private void observe(String threadId, Session before, Transition t, Instant now) {
        String binding = thread(threadId).binding();
        for (Effect e : t.effects()) {
            if (e instanceof Effect.TurnStateChanged c && FINISHED.containsKey(c.state())) {
                Map<String, Instant> starts = turnStarts.get(threadId);
                Instant start = starts == null ? null : starts.remove(c.messageId());
                metrics.turnFinished(binding, FINISHED.get(c.state()), start == null ? null : Duration.between(start, now));
                before.turn(c.messageId()).or(() -> t.session().turn(c.messageId()))
                        .ifPresent(turn -> spans.finished(where(threadId), turn, c.state(), now));
                if (c.state() != TurnView.COMPLETED) {
                    // a turn that did not complete is what an operator looks for: which binding, agent, thread, turn
                    try (LogContext ids = ids(threadId).and(LogContext.TURN, c.messageId())) {
                        LOG.info("bridge: turn {} of thread {} ended {}", c.messageId(), threadId,
                                c.state().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
                    }
                }
            } else if (e instanceof Effect.SendStream s) {
                t.session().turn(s.message().messageId()).filter(turn -> turn.sendAttempts() > 1)
                        .ifPresent(turn -> metrics.resend(binding));
            } else if (e instanceof Effect.CancelTask) {
                metrics.cancel(binding);
            }
        }
    }

    private static final Map<TurnView, Outcome> FINISHED = Map.of(TurnView.COMPLETED, Outcome.COMPLETED,
            TurnView.FAILED, Outcome.FAILED, TurnView.REJECTED, Outcome.REJECTED, TurnView.CANCELED, Outcome.CANCELED,
            TurnView.NOT_DELIVERED, Outcome.NOT_DELIVERED);

    /** Counts a call's result, then feeds it to the session. */
    private void callResult(String threadId, Input.Call method, CallFailure failure, Input input) {
        ChatThread thread = threads.get(threadId);
        if (thread != null) {
            metrics.agentCall(thread.binding(), method, failure);
        }
        submit(threadId, input);
    }

    // ================= effects =================

    private void run(String threadId, Transition t) {
        for (Effect e : t.effects()) {
            try {
                runOne(threadId, t.session(), e);
            } catch (RuntimeException ex) {
                try (LogContext ids = ids(threadId)) {
                    LOG.error("bridge: effect {} of session {} failed: {}", e.getClass().getSimpleName(), threadId,
                            ex.toString());
                }
            }
        }
    }

    private void runOne(String threadId, Session session, Effect e) {
        if (e instanceof Effect.FetchCard f) {
            BindingRuntime binding = bindings.get(thread(threadId).binding());
            if (binding == null || binding.backend().isEmpty()) {
                submit(threadId, callFailed(f.gen(), Input.Call.CARD, noBackend(), false));
                return;
            }
            hold(threadId);
            // a span only for a fetch that is made: the Binding's threads share one card
            binding.card(() -> {
                CallSpan span = spans.call(where(threadId), session.active().orElse(null), Input.Call.CARD,
                        session.agentVersion());
                AgentEndpoint ep = endpoint(threadId, session, span);
                if (ep == null) {
                    span.end(noBackend());
                    return Future.failedFuture(new CallException(noBackend()));
                }
                return client.fetchCard(ep).onComplete(ar -> span.end(ar.succeeded() ? null : failureOf(ar.cause())));
            }).onComplete(ar -> {
                release(threadId);
                CallFailure failure = ar.succeeded() ? null : failureOf(ar.cause());
                callResult(threadId, Input.Call.CARD, failure, failure == null
                        ? new Input.CardFetched(f.gen(), ar.result())
                        : callFailed(f.gen(), Input.Call.CARD, failure, false));
            });
        } else if (e instanceof Effect.SendStream s) {
            stream(threadId, s.gen(), Input.Call.SEND, (ep, listener) -> client.sendStreaming(ep,
                    SendMessageParams.of(s.message()), listener), session);
        } else if (e instanceof Effect.Subscribe s) {
            stream(threadId, s.gen(), Input.Call.SUBSCRIBE,
                    (ep, listener) -> client.subscribe(ep, s.taskId(), listener), session);
        } else if (e instanceof Effect.GetTask g) {
            call(threadId, g.gen(), Input.Call.GET_TASK, session,
                    ep -> client.getTask(ep, g.taskId(), null).map(task -> new Input.TaskRead(g.gen(), task)));
        } else if (e instanceof Effect.ListTasks l) {
            ListTasksParams params = new ListTasksParams(l.contextId(), null, LIST_PAGE_SIZE, l.pageToken(), LIST_HISTORY,
                    null, true, null);
            call(threadId, l.gen(), Input.Call.LIST_TASKS, session,
                    ep -> client.listTasks(ep, params).map(page -> new Input.TasksListed(l.gen(), page)));
        } else if (e instanceof Effect.CancelTask c) {
            call(threadId, c.gen(), Input.Call.CANCEL, session,
                    ep -> client.cancelTask(ep, c.taskId()).map(task -> new Input.CancelAccepted(c.gen(), task)));
        } else if (e instanceof Effect.CloseStream) {
            StreamHandle h = streams.remove(threadId);
            if (h != null) {
                h.close();
            }
        } else if (e instanceof Effect.ScheduleTimer s) {
            // rounded up: a timer that fires a fraction of a millisecond early finds its deadline not yet due and
            // is set again, a step and a session write for nothing
            long nanos = Duration.between(clock.instant(), s.at()).toNanos();
            long delay = Math.max(1, (nanos + 999_999) / 1_000_000);
            PendingTimer pending = new PendingTimer();
            timers.computeIfAbsent(threadId, k -> ConcurrentHashMap.newKeySet()).add(pending);
            pending.id = vertx.setTimer(delay, id -> {
                timers.computeIfPresent(threadId, (k, set) -> {
                    set.remove(pending);
                    return set.isEmpty() ? null : set;
                });
                submit(threadId, new Input.TimerFired(s.gen()));
            });
        } else if (e instanceof Effect.CountCredentialRejection) {
            ChatThread thread = thread(threadId);
            BindingRuntime binding = bindings.get(thread.binding());
            metrics.credentialRejection(thread.binding(), binding == null ? "unknown" : binding.spec().backendRef());
        }
        // ShowAnswer, PostNotice, AskQuestion, TurnStateChanged were committed with the step
    }

    private interface StreamStarter {
        StreamHandle start(AgentEndpoint endpoint, StreamListener listener);
    }

    private void stream(String threadId, long gen, Input.Call call, StreamStarter starter, Session session) {
        StreamHandle previous = streams.remove(threadId);
        if (previous != null) {
            previous.close();
        }
        CallSpan span = spans.call(where(threadId), session.active().orElse(null), call, session.agentVersion());
        AgentEndpoint ep = endpoint(threadId, session, span);
        if (ep == null) {
            span.end(noBackend());
            submit(threadId, callFailed(gen, call, noBackend(), false));
            return;
        }
        OpenStream open = new OpenStream(span);
        streams.put(threadId, open);
        StreamListener listener = new StreamListener() {
            @Override
            public void onEvent(StreamEvent event) {
                submit(threadId, new Input.StreamEventReceived(gen, event));
            }

            @Override
            public void onEnd() {
                span.end(null);
                streams.remove(threadId, open);
                callResult(threadId, call, null, new Input.StreamEnded(gen));
            }

            @Override
            public void onFailure(CallFailure failure, boolean afterEvents) {
                span.end(failure);
                streams.remove(threadId, open);
                callResult(threadId, call, failure, callFailed(gen, call, failure, afterEvents));
            }
        };
        // the client must be driven from a Vert.x context; its callbacks then stay on it
        vertx.runOnContext(v -> {
            try {
                open.started(starter.start(ep, listener));
            } catch (RuntimeException e) {
                span.end(failureOf(e));
                streams.remove(threadId, open);
                submit(threadId, callFailed(gen, call, failureOf(e), false));
            }
        });
    }

    /**
     * A stream from the moment it is asked for until it ends, fails or is closed: while it is in
     * {@code streams}, its session stays in memory. A close before the call started cuts it as it starts.
     */
    private static final class OpenStream implements StreamHandle {
        private final CallSpan span;
        private StreamHandle call;
        private boolean closed;

        OpenStream(CallSpan span) {
            this.span = span;
        }

        synchronized void started(StreamHandle handle) {
            call = handle;
            if (closed) {
                handle.close();
            }
        }

        @Override
        public synchronized void close() {
            closed = true;
            span.closed();
            if (call != null) {
                call.close();
            }
        }
    }

    private void call(String threadId, long gen, Input.Call call, Session session,
            java.util.function.Function<AgentEndpoint, Future<? extends Input>> invoke) {
        CallSpan span = spans.call(where(threadId), session.active().orElse(null), call, session.agentVersion());
        AgentEndpoint ep = endpoint(threadId, session, span);
        if (ep == null) {
            span.end(noBackend());
            submit(threadId, callFailed(gen, call, noBackend(), false));
            return;
        }
        hold(threadId);
        vertx.runOnContext(v -> invoke.apply(ep).onComplete(ar -> {
            release(threadId);
            CallFailure failure = ar.succeeded() ? null : failureOf(ar.cause());
            span.end(failure);
            callResult(threadId, call, failure, failure == null ? ar.result() : callFailed(gen, call, failure, false));
        }));
    }

    /** The endpoint for one call, carrying the call's trace context (every call is made for the active turn). */
    private AgentEndpoint endpoint(String threadId, Session session, CallSpan span) {
        BindingRuntime binding = bindings.get(thread(threadId).binding());
        AgentEndpoint ep = binding == null ? null : binding.endpoint(session.agentVersion(), span.headers()).orElse(null);
        // kagent-v1 asks for kagent's human-in-the-loop extension on every call when the card lists it
        return ep != null && session.hitl() ? ep.withHeader(Hitl.HEADER, Hitl.URI) : ep;
    }

    /** What the spans of a thread's turns name: the thread, its Binding, the Binding's backend. */
    private TurnSpans.Where where(String threadId) {
        String binding = thread(threadId).binding();
        BindingRuntime runtime = bindings.get(binding);
        return new TurnSpans.Where(threadId, binding, runtime == null ? "unknown" : runtime.spec().backendRef());
    }

    /** A failed call as the engine's input: the client's CallFailure goes in as it is (one type for both). */
    private static Input.CallFailed callFailed(long gen, Input.Call call, CallFailure failure, boolean afterEvents) {
        return new Input.CallFailed(gen, call, failure, afterEvents);
    }

    private static CallFailure noBackend() {
        return new CallFailure.Transport(CallFailure.TransportKind.CONNECT, "the binding's backend is not registered");
    }

    private static CallFailure failureOf(Throwable cause) {
        if (cause instanceof CallException ce) {
            return ce.failure();
        }
        return new CallFailure.Malformed(cause == null ? "unknown failure" : cause.toString());
    }

    private <T> Future<T> onLane(String key, Supplier<T> work) {
        Promise<T> promise = Promise.promise();
        ThreadPoolExecutor lane = lanes[Math.floorMod(key.hashCode(), lanes.length)];
        try {
            lane.execute(() -> {
                try {
                    promise.complete(work.get());
                } catch (RuntimeException e) {
                    promise.fail(e);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            promise.fail(new IllegalStateException("the bridge is shutting down"));
        }
        return promise.future();
    }

    @Override
    public void close() {
        if (closed) {
            return; // died for a test, or closed already
        }
        closed = true;
        if (replicaTimers != null) {
            replicaTimers.shutdownNow();
        }
        if (leases != null) {
            leases.close();
        }
        vertx.cancelTimer(sweepTimer);
        streams.values().forEach(StreamHandle::close);
        for (ThreadPoolExecutor lane : lanes) {
            lane.shutdown();
        }
        for (ThreadPoolExecutor lane : lanes) {
            try {
                lane.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (leases != null) {
            try {
                leases.releaseAll(); // a clean stop: the other replicas take its sessions over at their next scan
            } catch (RuntimeException e) {
                LOG.warn("bridge: cannot let the sessions' leases go: {}", e.toString());
            }
        }
    }
}
