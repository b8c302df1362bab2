package dev.switchboard.bridge.engine;

import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.AgentExtension;
import dev.switchboard.protocol.model.AgentInterface;

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
        // interfaces that are not JSON-RPC are dropped; the version is read from those left
        ProtocolVersion version = card.interfaces().stream()
                .filter(AgentInterface::isJsonRpc)
                .anyMatch(i -> i.protocolVersion() != null && i.protocolVersion().startsWith("1."))
                ? ProtocolVersion.V1_0 : ProtocolVersion.V0_3;
        // kagent-v1 asks for kagent's human-in-the-loop extension on every call when the card lists it
        boolean hitl = Engine.KAGENT.equals(s.session().dialect()) && card.capabilities().extensions().stream()
                .anyMatch(e -> Engine.KAGENT_HITL.equals(e.uri()));
        s.session(x -> x.withCard(version, x.currentFingerprint(), hitl));
        if (s.turn().retries().sendAttempts() == 0) {
            // the card's retry window is over; a resend keeps its own window
            s.retries(r -> r.withTroubleSince(null).withRetryAttempt(0));
        }
        Sends.send(s);
    }

    /** The refusals, in the seed's words; null when the card is acceptable. */
    static String refusal(String dialect, AgentCard card) {
        if (card.interfaces().stream().noneMatch(AgentInterface::isJsonRpc)) {
            return Notices.NO_JSONRPC;
        }
        if (!card.capabilities().streaming()) {
            return Notices.NO_STREAMING;
        }
        for (AgentExtension e : card.capabilities().extensions()) {
            boolean spoken = Engine.KAGENT.equals(dialect) && Engine.KAGENT_HITL.equals(e.uri());
            if (e.required() && !spoken) {
                return Notices.UNSUPPORTED_EXTENSION;
            }
        }
        return null;
    }
}
