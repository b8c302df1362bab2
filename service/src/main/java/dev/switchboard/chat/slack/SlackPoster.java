package dev.switchboard.chat.slack;

import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shows the bridge's posts in Slack threads: each post is one message, posted on its first text and then edited
 * with {@code chat.update} as the answer streams; an answer longer than one message goes on in the next.
 *
 * <p>Everything runs on one worker thread, which owns the state below. A post waiting to be shown is held once,
 * at its latest version, so a fast stream costs Slack one edit per second per message however many chunks came
 * (edits coalesce); a 429 pauses every call of the workspace for its {@code Retry-After}; {@code chat.update}
 * spends a workspace-wide budget under Tier 3 (50 a minute) and {@code chat.postMessage} keeps a second between
 * messages of one channel. Before a message is posted its row is written without a ts, so that after a crash
 * mid-post the message is looked up in the thread (by the post id in its metadata) instead of posted twice.
 */
final class SlackPoster {

    private static final Logger LOG = LoggerFactory.getLogger(SlackPoster.class);
    /** Slack shows about 4,000 characters of a message's text before folding it; parts stay under that. */
    static final int PART_CHARS = 3_000;
    static final Duration EDIT_SPACING = Duration.ofSeconds(1);
    private static final Duration MAX_BACKOFF = Duration.ofMinutes(1);
    private static final int MAX_ATTEMPTS = 20;
    /** Errors after which the message is gone for editing: the part is posted again instead. */
    private static final Set<String> GONE = Set.of("message_not_found", "cant_update_message", "edit_window_closed");

    private final SlackApi api;
    private final SlackStore store;
    private final Clock clock;
    private final ScheduledExecutorService worker;
    private final PostView view;
    private final Budget updates;
    private final StreamPolicy streams;
    private final NativeStream nativeStream;
    private final NativeSteps nativeSteps;
    private final ThinkingStatus thinking;
    /** answers shown natively (true) or by edits (false), as decided at their first delivery; bounded */
    private final Map<String, Boolean> streamedPosts = new HashMap<>();
    /** posts whose first part is an open stream: their next call spends the stream budgets */
    private final Set<String> openStreams = new java.util.HashSet<>();
    /** Turn states after which an answer's stream is stopped (a question waits below it, or the turn is over). */
    private static final String COMPLETED = "completed";
    private static final Set<String> STREAM_ENDS = Set.of("completed", "failed", "rejected", "canceled", "not_delivered",
            "waiting_for_answer");

    // ---- worker-thread state ----
    private final Map<String, Queued> queued = new LinkedHashMap<>();
    private final Map<String, Instant> notBefore = new HashMap<>();
    private final Map<String, Integer> attempts = new HashMap<>();
    private final ChannelSpacing channels;
    private Instant pausedUntil = Instant.MIN;
    private Instant drainAt;

    /** @param key the queue's and the store's key: the post's id, or its turn's steps message */
    private record Queued(ChatThread thread, Post post, String key) {}

    SlackPoster(SlackApi api, SlackStore store, Clock clock, ScheduledExecutorService worker, PostView view,
            SlackStreaming streaming) {
        this.api = api;
        this.store = store;
        this.clock = clock;
        this.worker = worker;
        this.view = view;
        this.updates = new Budget(20, 50.0 / 60.0, clock);
        this.streams = new StreamPolicy(streaming, clock);
        this.nativeStream = new NativeStream(api, store);
        this.nativeSteps = new NativeSteps(api, store);
        this.channels = new ChannelSpacing(clock);
        this.thinking = new ThinkingStatus(api);
    }

    /**
     * Shows a post's latest version (from any thread: it only queues). A person's message is in the thread already,
     * but one that answers a kagent question settles it: the question is shown again, without its buttons. A step
     * card is shown in its turn's one steps message ({@link #stepsKey}).
     */
    void show(ChatThread thread, Post post) {
        if (Post.USER.equals(post.kind())) {
            if (post.turnMessageId() != null && ThinkingStatus.applies(thread)) {
                onWorker(() -> thinking.turn(thread, post), post.id());
            }
            if (post.turnMessageId() != null && (COMPLETED.equals(post.state())
                    || streams.everStreams() && STREAM_ENDS.contains(post.state()))) {
                onWorker(() -> endStreams(thread, post.turnMessageId(), COMPLETED.equals(post.state())), post.id());
            }
            if (post.turnMessageId() != null) {
                onWorker(() -> settleQuestions(thread, post.turnMessageId()), post.id());
            }
            return;
        }
        if (Post.STEP.equals(post.kind()) && ThinkingStatus.applies(thread)) {
            onWorker(() -> thinking.step(thread, post), post.id());
        }
        onWorker(() -> {
            String key = Post.STEP.equals(post.kind()) && post.turnMessageId() != null ? stepsKey(post.turnMessageId()) : post.id();
            queued.put(key, new Queued(thread, post, key));
            drain();
        }, post.id());
    }

    /**
     * Runs on the app's post thread; once the app has stopped, does nothing: the bridge may still finish a turn while
     * Switchboard shuts down, and its posts are looked for again (as posts left unshown) at the next start.
     */
    private void onWorker(Runnable work, String what) {
        try {
            worker.execute(work);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.debug("slack: stopping; not shown now: {}", what);
        }
    }

    /**
     * A turn's step cards are one message, edited as cards arrive: a card is a post, and a message per card would
     * spend a chat.postMessage (about one a second per channel) on each of a busy agent's tool calls; edits of one
     * message coalesce to one a second. Its content is read back from the store, so a restart shows it whole.
     */
    static String stepsKey(String turnMessageId) {
        return "steps-" + turnMessageId;
    }

    /** The kagent questions of a turn whose messages may still show buttons: shown again as they now stand. */
    private void settleQuestions(ChatThread thread, String turnMessageId) {
        try {
            for (Post p : store.turnPosts(turnMessageId)) {
                if (Post.QUESTION.equals(p.kind()) && p.data() != null && !store.parts(p.id()).isEmpty()) {
                    queued.put(p.id(), new Queued(thread, p, p.id()));
                }
            }
            drain();
        } catch (RuntimeException e) {
            LOG.warn("slack: could not look up the questions of turn {}: {}", turnMessageId, e.toString());
        }
    }

    /**
     * The turn is over (or waits for an answer): its answers' open streams are shown once more, and stopped; once it
     * completed, every answer is shown again with the feedback buttons.
     */
    private void endStreams(ChatThread thread, String turnMessageId, boolean completed) {
        try {
            for (String id : store.answerPostIds(turnMessageId)) {
                if (completed || NativeStream.open(find(store.parts(id), 0))) {
                    store.post(id).ifPresent(p -> queued.put(id, new Queued(thread, p, id)));
                }
            }
            String steps = stepsKey(turnMessageId);
            if (NativeStream.open(find(store.parts(steps), 0))) {
                store.turnPosts(turnMessageId).stream().filter(p -> Post.STEP.equals(p.kind())).findFirst()
                        .ifPresent(p -> queued.put(steps, new Queued(thread, p, steps)));
            }
            drain();
        } catch (RuntimeException e) {
            LOG.warn("slack: could not look up the answers of turn {}: {}", turnMessageId, e.toString());
        }
    }

    private boolean nativeFor(Queued q) {
        return streams.on() && Post.AGENT.equals(q.post().kind())
                && q.key().equals(q.post().id());
    }

    /** Says something in a thread that is not a post of the bridge (e.g. a turn refused before it was accepted). */
    void say(String channel, String threadTs, String text) {
        onWorker(() -> {
            try {
                api.post(channel, threadTs, escape(text), "notice-" + channel + "-" + threadTs + "-" + clock.millis(), 0);
            } catch (SlackApi.Failure e) {
                LOG.warn("slack: could not tell thread {} in {}: {}", threadTs, channel, e.getMessage());
            }
        }, "a notice in thread " + threadTs);
    }

    /** Shows every due post whose time has come; the others wait for one scheduled drain. */
    private void drain() {
        Instant now = clock.instant();
        Instant next = null;
        // a delivery may queue again (a retry): the queue is walked as it stood, not while it changes
        for (String key : new ArrayList<>(queued.keySet())) {
            Queued q = queued.get(key);
            if (q == null) {
                continue;
            }
            Instant due = dueAt(q);
            if (due.isAfter(now)) {
                next = next == null || due.isBefore(next) ? due : next;
                continue;
            }
            queued.remove(key);
            deliver(q);
            now = clock.instant();
        }
        if (!queued.isEmpty()) {
            // a delivery may have queued a retry that is due at once
            Instant soonest = next;
            for (Queued q : queued.values()) {
                Instant due = dueAt(q);
                soonest = soonest == null || due.isBefore(soonest) ? due : soonest;
            }
            schedule(soonest);
        }
        if (notBefore.size() > 10_000) {
            Instant old = now.minus(MAX_BACKOFF);
            notBefore.values().removeIf(t -> t.isBefore(old));
        }
    }

    private Instant dueAt(Queued q) {
        Instant due = notBefore.getOrDefault(q.key(), Instant.MIN);
        if (pausedUntil.isAfter(due)) {
            due = pausedUntil;
        }
        Instant budget = budgetOf(q).availableAt();
        return budget.isAfter(due) ? budget : due;
    }

    /**
     * The budget a post's next call spends: a stream's (start, or append) for an answer shown natively, else
     * chat.update's. In auto mode an answer starts as an edited message when no stream may start now: a burst of
     * answers is shown at once rather than queued behind Tier 2.
     */
    private Budget budgetOf(Queued q) {
        Boolean streamed = streamedPosts.get(q.key());
        if (openStreams.contains(q.key())) {
            return streams.appends;
        }
        if (!nativeFor(q) || streamed != null) {
            return updates; // shown by edits, or a stopped stream (edited from then on)
        }
        return streams.mayStartNow() ? streams.starts : updates;
    }

    private void schedule(Instant at) {
        Instant now = clock.instant();
        if (drainAt != null && !drainAt.isAfter(at) && drainAt.isAfter(now.minusSeconds(5))) {
            return; // one drain is scheduled before then already
        }
        drainAt = at;
        long delay = Math.max(1, Duration.between(now, at).toMillis());
        worker.schedule(() -> {
            drainAt = null;
            drain();
        }, delay, TimeUnit.MILLISECONDS);
    }

    private void deliver(Queued q) {
        String postId = q.key();
        String channel = q.thread().channel();
        String threadTs = SlackThreads.threadTs(q.thread().threadId());
        try {
            if (!postId.equals(q.post().id()) && deliverSteps(q, channel, threadTs)) {
                return;
            }
            SlackBlocks.Rendered r = view.render(q.thread(), q.post(), q.key());
            String text = r.text();
            if (text.isBlank()) {
                return; // an answer is posted on its first text
            }
            List<SlackStore.ShownPart> shown = store.parts(postId);
            boolean streamOpen = false;
            NativeStream.Outcome outcome = r.blocks() == null && wantsNative(q, shown)
                    ? deliverNative(q, channel, threadTs, text, shown) : NativeStream.Outcome.REFUSED;
            if (outcome == NativeStream.Outcome.WAIT) {
                return;
            }
            if (Post.AGENT.equals(q.post().kind()) && q.key().equals(q.post().id())) {
                if (streamedPosts.size() > 10_000) {
                    streamedPosts.clear(); // forgotten: the next delivery reads the store again
                }
                streamedPosts.put(postId, outcome != NativeStream.Outcome.REFUSED);
            }
            if (outcome != NativeStream.Outcome.REFUSED) {
                // the first part is (or was) a stream: the rest, beyond its size, are ordinary messages
                streamOpen = outcome == NativeStream.Outcome.OPEN;
                List<String> parts = Parts.split(text, NativeStream.PART_CHARS);
                List<SlackStore.ShownPart> now = store.parts(postId);
                for (int i = 1; i < parts.size(); i++) {
                    deliverPart(channel, threadTs, postId, i, parts.get(i), null, find(now, i));
                }
            } else if (r.blocks() != null) {
                // a message with blocks is one message: its text is the fallback, cut to fit
                deliverPart(channel, threadTs, postId, 0, text, r.blocks(), shown.isEmpty() ? null : find(shown, 0));
            } else {
                List<String> parts = Parts.split(text, PART_CHARS);
                // a completed turn's answer ends with the feedback buttons, under its last part
                boolean rated = Post.AGENT.equals(q.post().kind()) && q.key().equals(q.post().id())
                        && q.post().turnMessageId() != null && COMPLETED.equals(store.turnState(q.post().turnMessageId()));
                for (int i = 0; i < Math.max(parts.size(), shown.size()); i++) {
                    SlackStore.ShownPart sp = i < shown.size() && shown.get(i).part() == i ? shown.get(i) : find(shown, i);
                    String partText = i < parts.size() ? parts.get(i) : "_(this part of the answer was replaced)_";
                    if (i >= parts.size() && sp == null) {
                        continue;
                    }
                    String blocks = rated && i == parts.size() - 1 ? SlackFeedback.withText(partText, postId) : null;
                    deliverPart(channel, threadTs, postId, i, partText, blocks, sp);
                }
            }
            if (!streamOpen) {
                store.completed(postId, q.post().updatedAt().toString());
            }
            attempts.remove(postId);
            notBefore.put(postId, clock.instant().plus(EDIT_SPACING));
        } catch (SlackApi.Failure f) {
            failed(q, f);
        } catch (RuntimeException e) {
            LOG.error("slack: showing post {} failed: {}", postId, e.toString());
            failed(q, new SlackApi.Failure("store", null, null, e.toString()));
        }
    }

    /**
     * Whether an answer's first part goes through {@link NativeStream}: always once it is (or was) a stream;
     * for an answer not shown yet, when native streaming is on and may start now (native mode waits for it).
     */
    private boolean wantsNative(Queued q, List<SlackStore.ShownPart> shown) {
        SlackStore.ShownPart first = find(shown, 0);
        if (NativeStream.streamed(first) || NativeStream.starting(first)) {
            return true;
        }
        // an answer already finished when first shown has nothing to stream: posted whole, no Tier 2 calls spent
        return first == null && nativeFor(q)
                && streams.mayStartNow() && (q.post().turnMessageId() == null
                || !STREAM_ENDS.contains(store.turnState(q.post().turnMessageId())))
                && NativeStream.canStream(q.thread().channel(), view.recipient(q.post()));
    }

    /** Shows an answer's first part as a stream. */
    private NativeStream.Outcome deliverNative(Queued q, String channel, String threadTs, String text, List<SlackStore.ShownPart> shown)
            throws SlackApi.Failure {
        String postId = q.key();
        String state = q.post().turnMessageId() == null ? null : store.turnState(q.post().turnMessageId());
        boolean finished = state == null || STREAM_ENDS.contains(state);
        SlackStore.ShownPart sp = find(shown, 0);
        String first = Parts.split(text, NativeStream.PART_CHARS).get(0);
        Budget need = NativeStream.open(sp) ? (finished ? streams.stops : streams.appends)
                : NativeStream.streamed(sp) ? updates : streams.starts;
        Instant at = need.availableAt();
        if (at.isAfter(clock.instant())) {
            notBefore.put(postId, at);
            queued.putIfAbsent(postId, q);
            return NativeStream.Outcome.WAIT;
        }
        need.spend();
        String feedback = COMPLETED.equals(state) ? SlackFeedback.blocks(postId).encode() : null;
        NativeStream.Outcome outcome = nativeStream.deliver(channel, threadTs, postId, first, feedback, finished, sp,
                sp == null || NativeStream.starting(sp) ? view.recipient(q.post()) : null);
        switch (outcome) {
            case OPEN -> openStreams.add(postId);
            case DONE -> openStreams.remove(postId);
            default -> {
                openStreams.remove(postId);
                streams.refused();
            }
        }
        return outcome;
    }

    /**
     * A turn's step cards as one stream of task chunks ({@link NativeSteps}) when native streaming is on, within the
     * stream methods' budgets; false when they are shown the ordinary way (edit mode, a refusal, a stream Slack ended,
     * a steps message that is an ordinary one already, or, in auto mode, no stream may start now).
     */
    private boolean deliverSteps(Queued q, String channel, String threadTs) throws SlackApi.Failure {
        String key = q.key();
        SlackStore.ShownPart sp = find(store.parts(key), 0);
        String state = store.turnState(q.post().turnMessageId());
        boolean finished = state == null || STREAM_ENDS.contains(state);
        NativeStream.Recipient to = sp == null || NativeStream.starting(sp) ? view.recipient(q.post()) : null;
        boolean fresh = sp == null && streams.on() && !finished && streams.mayStartNow()
                && NativeStream.canStream(channel, to);
        if (!fresh && !NativeStream.streamed(sp) && !NativeStream.starting(sp)) {
            return false;
        }
        if (fresh || NativeStream.open(sp) || NativeStream.starting(sp)) {
            // a stop may append the last changes first: it needs both
            List<Budget> need = !NativeStream.open(sp) ? List.of(streams.starts)
                    : finished ? List.of(streams.stops, streams.appends) : List.of(streams.appends);
            Instant at = need.stream().map(Budget::availableAt).max(Instant::compareTo).orElseThrow();
            if (at.isAfter(clock.instant())) {
                notBefore.put(key, at);
                queued.putIfAbsent(key, q);
                return true;
            }
            need.forEach(Budget::spend);
        }
        NativeStream.Outcome outcome = nativeSteps.deliver(channel, threadTs, key,
                NativeSteps.tasks(store.turnPosts(q.post().turnMessageId())), finished, sp, to);
        openStreams.remove(key);
        if (outcome == NativeStream.Outcome.REFUSED) {
            streams.refused();
        }
        if (outcome == NativeStream.Outcome.REFUSED || outcome == NativeStream.Outcome.EDIT) {
            return false;
        } else if (outcome == NativeStream.Outcome.OPEN) {
            openStreams.add(key);
        } else {
            store.completed(key, q.post().updatedAt().toString());
        }
        attempts.remove(key);
        notBefore.put(key, clock.instant().plus(EDIT_SPACING));
        return true;
    }

    private static SlackStore.ShownPart find(List<SlackStore.ShownPart> shown, int part) {
        return shown.stream().filter(s -> s.part() == part).findFirst().orElse(null);
    }

    /**
     * Posts a part, or edits it when what it shows changed. With blocks, what is kept as shown is the text and the
     * blocks together, so a change of either is an edit.
     */
    private void deliverPart(String channel, String threadTs, String postId, int part, String text, String blocks,
            SlackStore.ShownPart sp) throws SlackApi.Failure {
        String ts = sp == null ? null : sp.ts();
        String shownText = sp == null ? null : sp.shownText();
        String shows = Parts.shows(text, blocks);
        if (sp == null) {
            store.posting(postId, part, channel, threadTs);
        } else if (ts == null) {
            // a post was under way when the call or the process was cut off: did it reach Slack?
            ts = api.findPosted(channel, threadTs, postId, part).orElse(null);
        }
        if (ts == null) {
            channels.waitFor(channel);
            ts = api.post(channel, threadTs, text, blocks, postId, part);
            store.shown(postId, part, ts, shows);
            return;
        }
        if (shows.equals(shownText)) {
            return;
        }
        updates.spend();
        try {
            api.update(channel, ts, text, blocks);
        } catch (SlackApi.Failure f) {
            if (!GONE.contains(f.error)) {
                throw f;
            }
            LOG.info("slack: message {} of post {} can no longer be edited ({}); posting the part again", ts, postId, f.error);
            channels.waitFor(channel);
            ts = api.post(channel, threadTs, text, blocks, postId, part);
        }
        store.shown(postId, part, ts, shows);
    }

    private void failed(Queued q, SlackApi.Failure f) {
        String postId = q.key();
        Instant now = clock.instant();
        if (f.rateLimited()) {
            pausedUntil = now.plus(f.retryAfter);
            LOG.info("slack: rate limited; every call waits {} s (Retry-After)", f.retryAfter.toSeconds());
            queued.putIfAbsent(postId, q);
            return;
        }
        int n = attempts.merge(postId, 1, Integer::sum);
        if (!f.transientFailure() || n >= MAX_ATTEMPTS) {
            attempts.remove(postId);
            LOG.warn("slack: gave up showing post {} in channel {}: {}{}", postId, q.thread().channel(), f.getMessage(),
                    SlackTroubles.hint(f.error));
            return;
        }
        long backoff = Math.min(MAX_BACKOFF.toMillis(), 1000L << Math.min(n - 1, 10));
        notBefore.put(postId, now.plusMillis(backoff));
        queued.putIfAbsent(postId, q);
        LOG.info("slack: showing post {} failed ({}); trying again in {} ms", postId, f.getMessage(), backoff);
    }

    /**
     * Slack reads {@code <…>} as links and mentions ({@code <!channel>} would notify everyone) and {@code &} as an
     * entity: an agent's text is escaped so that it shows as written.
     */
    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
