package dev.switchboard.bridge.engine;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import dev.switchboard.protocol.ProtocolVersion;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * One chat thread's conversation with its agent: the context, the active turn and the queue behind
 * it. The engine never changes a session it was given: {@link Engine#step} works on a copy.
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public final class Session {

    /** How many message ids are remembered to drop repeated deliveries. */
    static final int SEEN_LIMIT = 2000;

    String id;
    /** "Web" or "Slack": the prefix of a person's text */
    String platform;
    String dialect;
    boolean questionsAllowed;
    Duration questionTimeout;

    String contextId;
    ProtocolVersion agentVersion;
    /** the endpoint and credentials the card was fetched for; a change means fetching it again */
    String cardFingerprint;
    String currentFingerprint;

    long gen;
    List<Turn> turns = new ArrayList<>();
    LinkedHashSet<String> seenMessageIds = new LinkedHashSet<>();
    /** a question was asked in this session: the next one must differ from it (messageId or timestamp) */
    boolean questionAsked;
    String lastQuestionMessageId;
    Instant lastQuestionTimestamp;

    Session() {}

    public Session(String id, String platform, String dialect, boolean questionsAllowed, Duration questionTimeout,
            String fingerprint) {
        this.id = id;
        this.platform = platform;
        this.dialect = dialect;
        this.questionsAllowed = questionsAllowed;
        this.questionTimeout = questionTimeout;
        this.currentFingerprint = fingerprint;
    }

    Session copy() {
        Session s = new Session(id, platform, dialect, questionsAllowed, questionTimeout, currentFingerprint);
        s.contextId = contextId;
        s.agentVersion = agentVersion;
        s.cardFingerprint = cardFingerprint;
        s.gen = gen;
        for (Turn t : turns) {
            s.turns.add(t.copy());
        }
        s.seenMessageIds = new LinkedHashSet<>(seenMessageIds);
        s.questionAsked = questionAsked;
        s.lastQuestionMessageId = lastQuestionMessageId;
        s.lastQuestionTimestamp = lastQuestionTimestamp;
        return s;
    }

    /** The Binding's current settings (they may change between runs); the driver applies them on load. */
    public Session withSettings(boolean allowed, Duration timeout, String fingerprint) {
        Session s = copy();
        s.questionsAllowed = allowed;
        s.questionTimeout = timeout;
        s.currentFingerprint = fingerprint;
        return s;
    }

    void remember(String messageId) {
        seenMessageIds.add(messageId);
        if (seenMessageIds.size() > SEEN_LIMIT) {
            Iterator<String> it = seenMessageIds.iterator();
            it.next();
            it.remove();
        }
    }

    public String id() {
        return id;
    }

    public String contextId() {
        return contextId;
    }

    public ProtocolVersion agentVersion() {
        return agentVersion;
    }

    public long gen() {
        return gen;
    }

    public List<Turn> turns() {
        return List.copyOf(turns);
    }

    /** The turn the session is working on (the first one that is not queued), if any. */
    public Optional<Turn> active() {
        return turns.isEmpty() || turns.get(0).phase == Phase.QUEUED ? Optional.empty() : Optional.of(turns.get(0));
    }

    public Optional<Turn> turn(String messageId) {
        return turns.stream().filter(t -> t.messageId.equals(messageId)).findFirst();
    }

    /** How many turns wait behind the active one (or, with none active, to be started). */
    public int queuedTurns() {
        int n = 0;
        for (Turn t : turns) {
            if (t.phase == Phase.QUEUED) {
                n++;
            }
        }
        return n;
    }

    /** True when the active turn waits for a person's answer: the next message answers it, it does not queue. */
    public boolean awaitsAnswer() {
        return active().map(t -> t.phase == Phase.PAUSED_INPUT).orElse(false);
    }

    /** True when nothing is pending: the session can be forgotten by the driver's memory (not the store). */
    public boolean idle() {
        return turns.isEmpty();
    }
}
