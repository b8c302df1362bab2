package dev.switchboard.check;

import static dev.switchboard.check.Evidence.failure;

import dev.switchboard.bridge.engine.Contract;
import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.bridge.engine.Notices;
import dev.switchboard.check.AgentCalls.Outcome;
import dev.switchboard.client.AgentEndpoint;
import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.kagent.Hitl;
import dev.switchboard.protocol.model.AgentCard;
import java.util.List;
import java.util.stream.Collectors;

/** The discovery rows (and kagent's extension row): fetches the agent's card and judges what it declares. */
final class CardProbe {

    private final CheckRequest request;
    private final AgentCalls calls;
    private final Verdicts verdicts;
    /** The row that says why the card could not be read. */
    private RowId cardRow = RowId.DISCOVERY_CARD;

    CardProbe(CheckRequest request, AgentCalls calls, Verdicts verdicts) {
        this.request = request;
        this.calls = calls;
        this.verdicts = verdicts;
    }

    /** The row that says why {@link #fetch} found no card. */
    RowId cardRow() {
        return cardRow;
    }

    /** The card, or null when it could not be read; throws {@link CouldNotRun} when the agent cannot be reached at all. */
    AgentCard fetch(AgentEndpoint base) {
        String sent = "GET " + base.cardUrl();
        Outcome<AgentCard> got = calls.call(sent, calls.client().fetchCard(base));
        if (got.failure() instanceof CallFailure.Transport t && t.kind() == CallFailure.TransportKind.CONNECT) {
            throw new CouldNotRun("could not connect to " + base.cardUrl() + ": " + t.detail());
        }
        if (got.failure() instanceof CallFailure.HttpStatus h && (h.status() == 401 || h.status() == 403)) {
            throw new CouldNotRun(sent + " → HTTP " + h.status() + ": the agent rejected the credentials; "
                    + "give them with --token or --header");
        }
        if (got.failure() instanceof CallFailure.Transport t && t.kind() == CallFailure.TransportKind.HEADERS_TIMEOUT) {
            cardRow = RowId.TRANSPORT_HEADERS_IN_30S;
            verdicts.conclude(RowId.DISCOVERY_CARD, Verdict.SKIP, "the card fetch got no response headers in time "
                    + "(see transport.headers-in-30s)");
            return null;
        }
        if (got.failure() instanceof CallFailure.HttpStatus h && h.status() >= 300 && h.status() < 400) {
            cardRow = RowId.TRANSPORT_NO_REDIRECT;
            verdicts.conclude(RowId.DISCOVERY_CARD, Verdict.SKIP, "the card fetch was redirected (see transport.no-redirect)");
            return null;
        }
        if (got.failure() != null) {
            verdicts.conclude(RowId.DISCOVERY_CARD, Verdict.FAIL, sent + " → " + failure(got.failure())
                    + ": the card fetch fails, and a turn is retried, then fails after 15 minutes");
            return null;
        }
        AgentCard card = got.value();
        verdicts.conclude(RowId.DISCOVERY_CARD, Verdict.PASS, sent + " → " + Evidence.text(card.name()) + ", interfaces: "
                + interfaces(card));
        judge(card, request.dialect(), request.endpointUrl(), verdicts);
        return card;
    }

    /** The rows a card decides on its own (after discovery.card), for the agent at {@code endpointUrl}. */
    static void judge(AgentCard card, Dialect dialect, String endpointUrl, Verdicts verdicts) {
        if (Contract.servesJsonRpc(card)) {
            verdicts.conclude(RowId.DISCOVERY_JSONRPC_INTERFACE, Verdict.PASS, "JSON-RPC interface(s): " + interfaces(card)
                    + "; Switchboard calls " + endpointUrl + " whatever URL they name");
        } else {
            verdicts.conclude(RowId.DISCOVERY_JSONRPC_INTERFACE, Verdict.FAIL, "the card lists " + interfaces(card)
                    + ": interfaces that are not JSON-RPC are dropped, and a card with none left fails every turn with \""
                    + Notices.NO_JSONRPC + "\"");
        }
        if (card.capabilities().streaming()) {
            verdicts.conclude(RowId.DISCOVERY_STREAMING, Verdict.PASS, "capabilities.streaming: true");
        } else {
            verdicts.conclude(RowId.DISCOVERY_STREAMING, Verdict.FAIL, "capabilities.streaming is not true: Switchboard refuses "
                    + "the agent (\"" + Notices.NO_STREAMING + "\"); the non-streaming send is never used");
        }
        List<String> unspoken = Contract.unspokenRequiredExtensions(dialect, card);
        if (unspoken.isEmpty()) {
            List<String> required = card.capabilities().extensions().stream().filter(e -> e.required())
                    .map(e -> e.uri()).toList();
            verdicts.conclude(RowId.DISCOVERY_EXTENSIONS, Verdict.PASS, required.isEmpty()
                    ? "no extension is marked required"
                    : "required " + required + ", which " + dialect.configName() + " speaks");
        } else {
            verdicts.conclude(RowId.DISCOVERY_EXTENSIONS, Verdict.FAIL, "the card marks " + unspoken + " required, which "
                    + dialect.configName() + " does not speak: the connect fails with \"" + Notices.UNSUPPORTED_EXTENSION + "\"");
        }
        if (dialect == Dialect.KAGENT_V1) {
            if (Contract.asksHitl(dialect, card)) {
                verdicts.conclude(RowId.KAGENT_HITL_EXTENSION, Verdict.PASS, "the card lists " + Hitl.URI
                        + ": every call asks for it with A2A-Extensions");
            } else {
                verdicts.conclude(RowId.KAGENT_HITL_EXTENSION, Verdict.FAIL, "the card's capabilities.extensions do not list "
                        + Hitl.URI + ": Switchboard does not ask for kagent's human-in-the-loop extension, so tool "
                        + "approvals and ask-user questions cannot be shown as forms");
            }
        }
    }

    private static String interfaces(AgentCard card) {
        if (card.interfaces().isEmpty()) {
            return "none";
        }
        return card.interfaces().stream()
                .map(i -> i.protocolBinding() + " " + (i.protocolVersion() == null ? "?" : i.protocolVersion()))
                .distinct().collect(Collectors.joining(", "));
    }
}
