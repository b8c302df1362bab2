package dev.switchboard.check;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.protocol.codec.CardCodec;
import dev.switchboard.protocol.model.AgentCard;
import java.util.List;

/**
 * What {@code switchboard check} says of a card already fetched, in its own words: the discovery rows a card decides
 * (JSON-RPC interface, streaming, required extensions, kagent's extension), without calling the agent. The console
 * shows them beside the card its probe fetched.
 */
public final class CardFindings {

    private CardFindings() {}

    /** The rows, in the check's order; a card that does not parse is one failed {@code discovery.card} row. */
    public static List<RowResult> of(JsonNode cardJson, Dialect dialect, String endpointUrl) {
        Verdicts verdicts = new Verdicts();
        AgentCard card;
        try {
            card = CardCodec.read(cardJson);
        } catch (RuntimeException e) {
            return List.of(new RowResult(RowId.DISCOVERY_CARD, Verdict.FAIL, "the card does not parse: " + e.getMessage()));
        }
        verdicts.conclude(RowId.DISCOVERY_CARD, Verdict.PASS, "served and parsed");
        CardProbe.judge(card, dialect, endpointUrl, verdicts);
        return verdicts.concluded();
    }
}
