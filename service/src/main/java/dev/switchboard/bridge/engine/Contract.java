package dev.switchboard.bridge.engine;

import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskArtifactUpdateEvent;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine's contract rules that can be judged from outside, callable without a session: {@code switchboard check}
 * asks these, so the checker and the bridge cannot disagree about the contract (there is no second copy of it).
 */
public final class Contract {

    /** Sent with every turn a person wrote (the checker's turns carry none, as a trigger's). */
    public static final String ACTOR_KEY = Engine.ACTOR_KEY;
    /** ListTasks follows nextPageToken for up to this many pages. */
    public static final int MAX_LIST_PAGES = Engine.MAX_LIST_PAGES;

    private Contract() {}

    /** Discovery: the endpoint every call goes to (a2a: the url as written; kagent-v1: url + /agents/ns/name). */
    public static String endpointUrl(Dialect dialect, String url, String namespace, String name) {
        return Discovery.endpointUrl(dialect, url, namespace, name);
    }

    /** Discovery: why the bridge refuses the agent with this card, in the seed's words; null when it does not. */
    public static String refusal(Dialect dialect, AgentCard card) {
        return Discovery.refusal(dialect, card);
    }

    public static boolean servesJsonRpc(AgentCard card) {
        return Discovery.servesJsonRpc(card);
    }

    public static List<String> unspokenRequiredExtensions(Dialect dialect, AgentCard card) {
        return Discovery.unspokenRequiredExtensions(dialect, card);
    }

    /** The version the bridge speaks to the agent with this card. */
    public static ProtocolVersion version(AgentCard card) {
        return Discovery.version(card);
    }

    /** kagent-v1 with the hitl/v1 extension on the card: every call asks for it with {@code A2A-Extensions}. */
    public static boolean asksHitl(Dialect dialect, AgentCard card) {
        return Discovery.asksHitl(dialect, card);
    }

    /** Replies: the text the bridge shows from these parts (artifact text parts only; file and data parts never). */
    public static String shownText(List<Part> parts) {
        return Replies.text(parts);
    }

    /**
     * Replies: the answer a stream's events build, as the bridge builds it (uncut): artifact updates with append add to
     * that artifact's text, others replace it, and a full Task's artifacts replace them all.
     */
    public static String answerOf(List<StreamEvent> events) {
        Map<String, String> artifacts = new LinkedHashMap<>();
        for (StreamEvent e : events) {
            if (e instanceof Task t && t.artifacts() != null) {
                artifacts = Replies.texts(t.artifacts());
            } else if (e instanceof TaskArtifactUpdateEvent a) {
                Replies.apply(artifacts, a);
            }
        }
        return String.join("", artifacts.values());
    }

    /** Replies: the answer a full Task holds (its artifacts' text), as the bridge reads it. */
    public static String answerOf(Task task) {
        return task.artifacts() == null ? "" : Replies.joined(task.artifacts());
    }

    /**
     * Replies: only a full Task in a terminal, input-required or auth-required state settles a turn as it arrives; a
     * stream that ends on anything else counts as dropped and the turn is settled with GetTask.
     */
    public static boolean settles(StreamEvent event) {
        return event instanceof Task t && (t.state().isTerminal() || t.state().isInterrupted());
    }

    /** Methods, ListTasks: a listed task holds a turn only if its history has a message with the turn's messageId. */
    public static boolean holdsTurn(Task task, String messageId) {
        return Lookups.holds(task, messageId);
    }

    /** The seed's durations (30 s for response headers, 5 min between events, GetTask 1 s after a dropped stream). */
    public static ContractDurations durations() {
        return ContractDurations.DEFAULTS;
    }

    public static Duration silenceLimit() {
        return ContractDurations.DEFAULTS.silenceLimit();
    }
}
