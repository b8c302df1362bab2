package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.Input;
import dev.switchboard.bridge.engine.Session;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.LeaseLost;
import dev.switchboard.bridge.store.Post;
import dev.switchboard.log.LogContext;
import dev.switchboard.protocol.kagent.Hitl;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Several replicas on PostgreSQL (issue 12): each session is driven by the replica holding its lease. A message that
 * reaches a replica not holding the thread's lease goes to the owner's inbox; a replica renews its leases (every third
 * of their duration, on the thread {@code bridge-leases}, real time: the leases expire in the database's), takes over
 * the sessions of replicas that stopped renewing, and shows the posts other replicas change.
 */
final class LeasedReplicas implements Replication {

    private static final Logger LOG = LoggerFactory.getLogger(LeasedReplicas.class);

    private final SessionLeases leases;
    private final Replication.Driver driver;
    private final Vertx vertx;
    private final ChatStore store;
    private final ChatPlatforms platforms;
    private final BridgeLimits limits;
    /** renews the leases and takes over the sessions of dead replicas, once {@link #recover} started it */
    private volatile ScheduledExecutorService timers;

    LeasedReplicas(SessionLeases leases, Replication.Driver driver, Vertx vertx, ChatStore store, ChatPlatforms platforms,
            BridgeLimits limits) {
        this.leases = leases;
        this.driver = driver;
        this.vertx = vertx;
        this.store = store;
        this.platforms = platforms;
        this.limits = limits;
    }

    @Override
    public SessionLeases leases() {
        return leases;
    }

    /**
     * Only the sessions whose lease is free: this replica takes them, and from now on renews its leases, takes over
     * the sessions of replicas that died, and listens for forwarded messages and other replicas' posts.
     */
    @Override
    public Future<Integer> recover() {
        return driver.onLane("recover", () -> {
            leases.listen(this::postElsewhere, this::inboxArrived);
            long ms = leases.leaseDuration().toMillis();
            timers = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "bridge-leases");
                t.setDaemon(true);
                return t;
            });
            timers.scheduleAtFixedRate(this::renew, Math.max(1, ms / 3), Math.max(1, ms / 3), TimeUnit.MILLISECONDS);
            timers.scheduleWithFixedDelay(this::takeOver, Math.max(1, ms / 2), Math.max(1, ms / 2),
                    TimeUnit.MILLISECONDS);
            return leases.orphans();
        }).compose(orphans -> {
            List<Future<Boolean>> taken = orphans.stream().filter(SessionLeases.Orphan::pending)
                    .map(o -> driver.onLane(o.threadId(), () -> ownOrTake(o.threadId()))).toList();
            return Future.join(taken).transform(ar -> Future.succeededFuture(
                    (int) taken.stream().filter(f -> f.succeeded() && f.result()).count()));
        });
    }

    /** Takes a message here, or in the thread's owner's inbox when another replica holds the lease. */
    @Override
    public Future<Post> admit(ChatThread thread, Incoming m) {
        String threadId = thread.threadId();
        SessionLeases.Inbound inbound = new SessionLeases.Inbound(m.messageId(), threadId, m.text(), m.actor(),
                m.trace(), m.questionId(), m.isAnswer() ? Hitl.write(m.answer()) : null);
        return driver.onLane(threadId, () -> {
            Optional<Post> existing = store.post(m.messageId());
            if (existing.isPresent() && !leases.holds(threadId)) {
                return checkedRepeat(thread, existing.get()); // B7, whoever drives the thread
            }
            driver.remember(thread);
            if (ownOrTake(threadId)) {
                return takeHere(thread, m);
            }
            leases.forward(inbound);
            return (Post) null;
        }).compose(p -> p != null ? Future.succeededFuture(p) : awaitForwarded(thread, m, System.nanoTime(), 0));
    }

    @Override
    public boolean drives(String threadId) {
        return leases.holds(threadId);
    }

    @Override
    public void idle(String threadId) {
        if (leases.holds(threadId)) {
            leases.release(threadId); // whichever replica a message reaches next takes it
        }
    }

    @Override
    public void lost(String threadId) {
        driver.forget(threadId);
        leases.release(threadId);
    }

    @Override
    public void stop() {
        if (timers != null) {
            timers.shutdownNow();
        }
        leases.close();
    }

    @Override
    public void letAllGo() {
        try {
            leases.releaseAll(); // a clean stop: the other replicas take its sessions over at their next scan
        } catch (RuntimeException e) {
            LOG.warn("bridge: cannot let the sessions' leases go: {}", e.toString());
        }
    }

    private Post takeHere(ChatThread thread, Incoming m) {
        try {
            return driver.take(thread, m);
        } catch (LeaseLost e) {
            lost(thread.threadId());
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
    private Future<Post> awaitForwarded(ChatThread thread, Incoming m, long since, int tick) {
        long limit = Math.max(30_000, leases.leaseDuration().toMillis() * 4);
        if (driver.closed()) {
            return Future.failedFuture(new IllegalStateException("the bridge is shutting down"));
        }
        Promise<Post> promise = Promise.promise();
        // real time, not the driver's scheduler: this polls the database for another process's work
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
        }, false).compose(p -> p != null || tick % 5 != 4 ? Future.succeededFuture(p)
                : driver.onLane(thread.threadId(), () -> {
                    // the owner may be gone, or have let the session go: the lease is free then, and the inbox is
                    // taken here
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

    private TurnRefused refusal(ChatThread thread, Incoming m, SessionLeases.Refusal r) {
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
                Incoming incoming = new Incoming(m.messageId(), m.text(), m.actor(), m.trace(), m.questionId(),
                        m.questionId() != null ? Hitl.parseAnswer(m.answer()) : null);
                takeHere(driver.thread(threadId), incoming);
                leases.accepted(m.messageId());
            } catch (TurnRefused e) {
                leases.refused(m.messageId(), e.getClass().getSimpleName(), e.getMessage());
            } catch (RuntimeException e) {
                try (LogContext ids = driver.ids(threadId)) {
                    LOG.warn("bridge: a message forwarded to thread {} was not taken yet: {}", threadId, e.toString());
                }
                return;
            }
        }
    }

    /** The listener: a message was forwarded to a thread; this replica takes it when it drives the thread. */
    private void inboxArrived(String threadId) {
        if (!driver.closed() && leases.holds(threadId)) {
            driver.onLane(threadId, () -> {
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
    private void renew() {
        if (driver.closed()) {
            return;
        }
        try {
            for (String threadId : leases.renew()) {
                try (LogContext ids = LogContext.thread(threadId)) {
                    LOG.info("bridge: replica {} lost the lease of thread {}", leases.replicaId(), threadId);
                }
                driver.onLane(threadId, () -> {
                    driver.forget(threadId);
                    return null;
                });
            }
            // a lease taken for a thread that then never came into memory (a refused message) is let go
            for (String threadId : leases.held()) {
                driver.onLane(threadId, () -> {
                    if (leases.holds(threadId) && !driver.inMemory(threadId)) {
                        leases.release(threadId);
                    }
                    return null;
                });
            }
        } catch (RuntimeException e) {
            LOG.warn("bridge: cannot renew the sessions' leases: {}", SessionDriver.withCause(e));
        }
    }

    /**
     * Takes the sessions no live replica drives: each one with unfinished turns is recovered as after a restart (B14),
     * and messages forwarded to a thread whose owner is gone are taken.
     */
    private void takeOver() {
        if (driver.closed()) {
            return;
        }
        try {
            for (SessionLeases.Orphan o : leases.orphans()) {
                if (driver.closed()) {
                    break;
                }
                driver.onLane(o.threadId(), () -> ownOrTake(o.threadId())).onFailure(e -> {
                    try (LogContext ids = LogContext.thread(o.threadId())) {
                        LOG.warn("bridge: cannot take thread {} over: {}", o.threadId(), e.toString());
                    }
                });
            }
        } catch (RuntimeException e) {
            LOG.warn("bridge: cannot look for sessions to take over: {}", e.toString());
        }
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
        if (driver.closed() || !leases.acquire(threadId)) {
            return false;
        }
        driver.forget(threadId); // whatever this replica held of it is older than the store
        Session stored = store.session(threadId).orElse(null);
        if (stored != null && !stored.idle()) {
            try (LogContext ids = driver.ids(threadId)) {
                LOG.info("bridge: replica {} takes over thread {}", leases.replicaId(), threadId);
            }
            driver.step(threadId, new Input.Restarted());
        }
        drainInbox(threadId);
        return true;
    }
}
