package dev.switchboard.bridge.engine;

import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.AgentExtension;
import dev.switchboard.protocol.model.AgentInterface;
import java.util.List;

/** Seed: Discovery and transport. The card: when it is fetched, what refuses an agent, the version it names. */
final class Discovery {

    private Discovery() {}

    /** Starts the active turn: the card first when it is needed, else the send. */
    static void begin(Step s) {
        if (s.session().needsCard()) {
            // the card is fetched on first use and again when the URL or credentials change
            s.phase(Phase.FETCHING_CARD);
            s.view(TurnView.SENDING);
            s.emit(new Effect.FetchCard(s.nextGen()));
            return;
        }
        Sends.send(s);
    }

    static void cardFetched(Step s, AgentCard card) {
        String refusal = refusal(s.session().dialect(), card);
        if (refusal != null) {
            s.notDelivered(Notices.refused(refusal));
            return;
        }
        ProtocolVersion version = version(card);
        boolean hitl = asksHitl(s.session().dialect(), card);
        s.session(x -> x.withCard(version, x.currentFingerprint(), hitl));
        if (s.turn().retries().sendAttempts() == 0) {
            // the card's retry window is over; a resend keeps its own window
            s.retries(r -> r.withTroubleSince(null).withRetryAttempt(0));
        }
        Sends.send(s);
    }

    /** The refusals, in the seed's words; null when the card is acceptable. */
    static String refusal(Dialect dialect, AgentCard card) {
        if (!servesJsonRpc(card)) {
            return Notices.NO_JSONRPC;
        }
        if (!card.capabilities().streaming()) {
            return Notices.NO_STREAMING;
        }
        if (!unspokenRequiredExtensions(dialect, card).isEmpty()) {
            return Notices.UNSUPPORTED_EXTENSION;
        }
        return null;
    }

    /** Interfaces that are not JSON-RPC are dropped: a card needs at least one that is. */
    static boolean servesJsonRpc(AgentCard card) {
        return card.interfaces().stream().anyMatch(AgentInterface::isJsonRpc);
    }

    /** The extensions the card marks required that the dialect does not speak (kagent-v1 speaks hitl/v1, a2a none). */
    static List<String> unspokenRequiredExtensions(Dialect dialect, AgentCard card) {
        return card.capabilities().extensions().stream()
                .filter(AgentExtension::required)
                .filter(e -> !(dialect == Dialect.KAGENT_V1 && Engine.KAGENT_HITL.equals(e.uri())))
                .map(AgentExtension::uri)
                .toList();
    }

    /** The version is read from the JSON-RPC interfaces: 1.0 when any of them says 1.x, else 0.3. */
    static ProtocolVersion version(AgentCard card) {
        return card.interfaces().stream()
                .filter(AgentInterface::isJsonRpc)
                .anyMatch(i -> i.protocolVersion() != null && i.protocolVersion().startsWith("1."))
                ? ProtocolVersion.V1_0 : ProtocolVersion.V0_3;
    }

    /** kagent-v1 asks for kagent's human-in-the-loop extension on every call when the card lists it. */
    static boolean asksHitl(Dialect dialect, AgentCard card) {
        return dialect == Dialect.KAGENT_V1 && card.capabilities().extensions().stream()
                .anyMatch(e -> Engine.KAGENT_HITL.equals(e.uri()));
    }

    /** On a2a the endpoint is the url as written; on kagent-v1, url (trailing slash trimmed) + /agents/ns/name. */
    static String endpointUrl(Dialect dialect, String url, String namespace, String name) {
        return dialect == Dialect.KAGENT_V1 ? url.replaceAll("/+$", "") + "/agents/" + namespace + "/" + name : url;
    }
}
