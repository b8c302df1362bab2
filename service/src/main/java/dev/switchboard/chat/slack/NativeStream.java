package dev.switchboard.chat.slack;

import java.util.Set;

/**
 * An answer's first part shown as one natively streamed Slack message: {@code chat.startStream} with its first
 * text, {@code chat.appendStream} with what was added since, {@code chat.stopStream} once the turn is over. What the
 * store keeps as shown for an open stream is its text behind {@link #OPEN}, so that after a crash the same message
 * is appended to or stopped, never a second one started; a stopped stream is an ordinary message, edited with
 * {@code chat.update} like any other. Worker thread only (see {@link SlackPoster}).
 */
final class NativeStream {

    /** Marks what an open stream shows in {@code slack_message.shown_text}. */
    static final String OPEN = "\u0001stream\n";
    /**
     * Marks a part whose stream is being started: written before {@code chat.startStream}, so that when its answer is
     * lost (a crash, a cut connection) the stream Slack may have started is looked for and gone on with
     * ({@link SlackApi#findUnrecordedStream}) rather than a second one started.
     */
    static final String STARTING = "\u0001starting\n";
    /** Marks what a stopped stream shows: edited with chat.update from then on, parts of {@link #PART_CHARS}. */
    static final String STOPPED = "\u0001stopped\n";
    /** {@code markdown_text} of every stream method takes at most 12,000 characters: a streamed part stays under it. */
    static final int PART_CHARS = 12_000;
    /** Errors after which the stream can no longer be appended to: the message is finished with {@code chat.update}. */
    static final Set<String> NOT_STREAMING = Set.of("message_not_in_streaming_state", "message_not_owned_by_app",
            "cant_update_message", "streaming_state_conflict");

    /**
     * Whom a stream is for: Slack requires it outside direct messages ({@code recipient_user_id},
     * {@code recipient_team_id}): the person whose message started the turn, in the app's team.
     */
    record Recipient(String userId, String teamId) {}

    /** Whether a message in {@code channel} may stream for {@code r}: a direct message always, a channel with one. */
    static boolean canStream(String channel, Recipient r) {
        return r != null || channel != null && channel.startsWith("D");
    }

    /** What happened to the part. */
    enum Outcome {
        /** the stream is open and shows the text */
        OPEN,
        /** the message shows the text and is no longer a stream */
        DONE,
        /** the workspace refused native streaming: show the part the old way */
        REFUSED,
        /** steps only ({@link NativeSteps}): Slack ended the stream; the message is edited to the ordinary rendering */
        EDIT,
        /** nothing called: the method's budget is spent; the post is queued again for when it is not */
        WAIT
    }

    private final SlackApi api;
    private final SlackStore store;

    NativeStream(SlackApi api, SlackStore store) {
        this.api = api;
        this.store = store;
    }

    static boolean open(SlackStore.ShownPart sp) {
        return sp != null && sp.ts() != null && sp.shownText() != null && sp.shownText().startsWith(OPEN);
    }

    /** Whether the part's stream was being started when its answer was lost. */
    static boolean starting(SlackStore.ShownPart sp) {
        return sp != null && sp.ts() == null && STARTING.equals(sp.shownText());
    }

    /**
     * The stream a lost answer of {@code chat.startStream} left behind, adopted: recorded as the part's open stream,
     * showing its text so far (a stream of task chunks: {@code tasks}, no task taken as shown); null when there is none
     * (the start never reached Slack: it is started again).
     *
     * @param text the text the part is to show: the lost stream's must begin it (empty for task chunks)
     */
    static SlackStore.ShownPart adopt(SlackApi api, SlackStore store, SlackStore.ShownPart sp, String text, boolean tasks)
            throws SlackApi.Failure {
        SlackApi.Unrecorded lost = api.findUnrecordedStream(sp.channel(), sp.threadTs(),
                store.knownTs(sp.channel(), sp.threadTs()), text).orElse(null);
        if (lost == null) {
            return null;
        }
        String shows = OPEN + (tasks ? "[]" : lost.text());
        store.shown(sp.postId(), sp.part(), lost.ts(), shows);
        return new SlackStore.ShownPart(sp.postId(), sp.part(), sp.channel(), sp.threadTs(), lost.ts(), shows,
                sp.shownUpdate());
    }

    /**
     * A stream in a channel is started only for a known person: a part that comes here without one (its app not
     * identified yet after a restart) waits, as after a passing failure, rather than have Slack refuse the stream.
     */
    static void requireRecipient(String channel, Recipient recipient) throws SlackApi.Failure {
        if (!canStream(channel, recipient)) {
            throw new SlackApi.Failure("chat.startStream", null, null, "no recipient known yet for a stream in "
                    + channel);
        }
    }

    /** Whether the part is (or was) a stream: it is then always shown through this class. */
    static boolean streamed(SlackStore.ShownPart sp) {
        return open(sp) || sp != null && sp.ts() != null && sp.shownText() != null && sp.shownText().startsWith(STOPPED);
    }

    /**
     * Shows {@code text} (part 0 of post {@code postId}) as a stream.
     *
     * @param sp where the part is shown so far (null: nowhere); an open stream or nothing
     * @param finished whether the turn is over: the stream is then stopped, with {@code blocks} (or none)
     * @param recipient whom a new stream is for (null only in a direct message: {@link #canStream})
     */
    Outcome deliver(String channel, String threadTs, String postId, String text, String blocks, boolean finished,
            SlackStore.ShownPart sp, Recipient recipient) throws SlackApi.Failure {
        if (streamed(sp) && !open(sp)) {
            // a stopped stream is an ordinary message now
            String shows = STOPPED + Parts.shows(text, blocks);
            return shows.equals(sp.shownText()) ? Outcome.DONE : edit(channel, sp.ts(), postId, text, blocks);
        }
        SlackStore.ShownPart adopted = starting(sp) ? adopt(api, store, sp, text, false) : null;
        if (adopted != null) {
            sp = adopted;
        } else if (!open(sp)) {
            if (sp == null) {
                store.posting(postId, 0, channel, threadTs);
            }
            requireRecipient(channel, recipient);
            store.shown(postId, 0, null, STARTING);
            String ts;
            try {
                ts = api.startStream(channel, threadTs, text, recipient);
            } catch (SlackApi.Failure f) {
                if (f.transientFailure()) {
                    throw f;
                }
                return Outcome.REFUSED;
            }
            store.shown(postId, 0, ts, OPEN + text);
            return finished ? stop(channel, ts, postId, text, "", blocks) : Outcome.OPEN;
        }
        String ts = sp.ts();
        String shown = sp.shownText().substring(OPEN.length());
        if (!text.startsWith(shown)) {
            // the answer was replaced, not extended: the stream ends and the message is edited to the new text
            try {
                api.stopStream(channel, ts, null, null, postId, 0);
            } catch (SlackApi.Failure f) {
                if (f.transientFailure()) {
                    throw f;
                }
            }
            return edit(channel, ts, postId, text, blocks);
        }
        String delta = text.substring(shown.length());
        try {
            if (finished) {
                return stop(channel, ts, postId, text, delta, blocks);
            }
            if (!delta.isEmpty()) {
                api.appendStream(channel, ts, delta);
                store.shown(postId, 0, ts, OPEN + text);
            }
            return Outcome.OPEN;
        } catch (SlackApi.Failure f) {
            if (!NOT_STREAMING.contains(f.error)) {
                throw f;
            }
            // Slack ended the stream (it times out, or a crash outlasted it): the same message is edited instead
            return edit(channel, ts, postId, text, blocks);
        }
    }

    private Outcome stop(String channel, String ts, String postId, String text, String delta, String blocks)
            throws SlackApi.Failure {
        api.stopStream(channel, ts, delta, blocks, postId, 0);
        store.shown(postId, 0, ts, STOPPED + Parts.shows(text, blocks));
        return Outcome.DONE;
    }

    private Outcome edit(String channel, String ts, String postId, String text, String blocks) throws SlackApi.Failure {
        api.update(channel, ts, text, blocks);
        store.shown(postId, 0, ts, STOPPED + Parts.shows(text, blocks));
        return Outcome.DONE;
    }
}
