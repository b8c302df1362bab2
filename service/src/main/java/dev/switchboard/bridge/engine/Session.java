package dev.switchboard.bridge.engine;

import dev.switchboard.protocol.ProtocolVersion;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One chat thread's conversation with its agent: the context, the active turn and the queue behind
 * it. Immutable: {@link Engine#step} returns a new session and never changes the one it was given.
 *
 * <p>Repeated deliveries of a chat message (B7) are not remembered here: the driver looks every incoming
 * messageId up among the thread's posts (a primary-key probe) before it steps the engine, so the session
 * does not carry, and rewrite with every step, a list of the message ids it has seen.
 *
 * @param platform the thread's platform: its label is the prefix of a person's text
 * @param currentFingerprint the Binding's endpoint and credentials now
 * @param cardFingerprint the endpoint and credentials the card was fetched for; a change means fetching it again
 * @param gen the generation of the newest call or timer; results quoting an older one are stale
 * @param turns the active turn (if any) first, then the queue
 * @param lastQuestion the question last asked in this session (null when none was): the next must differ from it
 * @param hitl kagent-v1 and the card lists kagent's human-in-the-loop extension: every call asks for it
 */
public record Session(
        String id,
        Platform platform,
        Dialect dialect,
        boolean questionsAllowed,
        Duration questionTimeout,
        String currentFingerprint,
        String cardFingerprint,
        ProtocolVersion agentVersion,
        String contextId,
        long gen,
        List<Turn> turns,
        LastQuestion lastQuestion,
        boolean hitl) {

    /** A question is told apart from the last one by its messageId or its status timestamp. */
    public record LastQuestion(String messageId, Instant timestamp) {}

    public Session {
        // List.copyOf keeps a list that is already immutable: a step's many copies of a session share them
        turns = List.copyOf(turns);
    }

    /** A new thread's session: no context, no card, nothing seen. */
    public Session(String id, Platform platform, Dialect dialect, boolean questionsAllowed, Duration questionTimeout,
            String fingerprint) {
        this(id, platform, dialect, questionsAllowed, questionTimeout, fingerprint, null, null, null, 0, List.of(), null,
                false);
    }

    /** The Binding's current settings (they may change between runs); the driver applies them on load. */
    public Session withSettings(boolean allowed, Duration timeout, String fingerprint) {
        return new Session(id, platform, dialect, allowed, timeout, fingerprint, cardFingerprint, agentVersion,
                contextId, gen, turns, lastQuestion, hitl);
    }

    Session withCard(ProtocolVersion version, String fingerprint, boolean hitlListed) {
        return new Session(id, platform, dialect, questionsAllowed, questionTimeout, currentFingerprint, fingerprint,
                version, contextId, gen, turns, lastQuestion, hitlListed);
    }

    Session withContextId(String context) {
        return new Session(id, platform, dialect, questionsAllowed, questionTimeout, currentFingerprint, cardFingerprint,
                agentVersion, context, gen, turns, lastQuestion, hitl);
    }

    Session withGen(long generation) {
        return new Session(id, platform, dialect, questionsAllowed, questionTimeout, currentFingerprint, cardFingerprint,
                agentVersion, contextId, generation, turns, lastQuestion, hitl);
    }

    Session withTurns(List<Turn> list) {
        return new Session(id, platform, dialect, questionsAllowed, questionTimeout, currentFingerprint, cardFingerprint,
                agentVersion, contextId, gen, list, lastQuestion, hitl);
    }

    Session withLastQuestion(LastQuestion question) {
        return new Session(id, platform, dialect, questionsAllowed, questionTimeout, currentFingerprint, cardFingerprint,
                agentVersion, contextId, gen, turns, question, hitl);
    }

    /**
     * True when this session differs from {@code before} at most in what a streamed chunk changes: a turn's
     * answer so far (its artifacts and whether they were cut) and the stream's liveness (last sign of life,
     * silence deadline). The answer is written to the turn's answer post with the chunk, and the liveness is
     * only a timer's business: such a step need not rewrite the session (issue 9, a chunk updates one post).
     */
    public boolean changedOnlyByStreaming(Session before) {
        if (before == this) {
            return true;
        }
        if (before.turns.size() != turns.size()) {
            return false;
        }
        return withTurns(turns.stream().map(Session::withoutStreamed).toList())
                .equals(before.withTurns(before.turns.stream().map(Session::withoutStreamed).toList()));
    }

    private static Turn withoutStreamed(Turn t) {
        return t.withProgress(t.progress().withArtifacts(java.util.Map.of()).withAnswerCut(false))
                .withFollowing(t.following().withLastSignOfLife(null).withSilenceDeadline(null));
    }

    /** The card must be fetched: never fetched, or the endpoint or credentials changed since. */
    boolean needsCard() {
        return agentVersion == null || !Objects.equals(currentFingerprint, cardFingerprint);
    }

    /** The turn the session is working on (the first one that is not queued), if any. */
    public Optional<Turn> active() {
        return turns.isEmpty() || turns.get(0).phase() == Phase.QUEUED ? Optional.empty() : Optional.of(turns.get(0));
    }

    public Optional<Turn> turn(String messageId) {
        return turns.stream().filter(t -> t.messageId().equals(messageId)).findFirst();
    }

    /** How many turns wait behind the active one (or, with none active, to be started). */
    public int queuedTurns() {
        return (int) turns.stream().filter(t -> t.phase() == Phase.QUEUED).count();
    }

    /** True when the active turn waits for a person's answer: the next message answers it, it does not queue. */
    public boolean awaitsAnswer() {
        return active().map(t -> t.phase() == Phase.PAUSED_INPUT).orElse(false);
    }

    /** True when nothing is pending: the session can be forgotten by the driver's memory (not the store). */
    public boolean idle() {
        return turns.isEmpty();
    }
}
