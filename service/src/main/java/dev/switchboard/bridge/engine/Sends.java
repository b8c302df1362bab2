package dev.switchboard.bridge.engine;

import dev.switchboard.protocol.model.Message;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Seed: What Agent Kourier sends, and Methods, SendStreamingMessage ("for every turn"). One user
 * message, one text part, the person's prefix and actor metadata.
 */
final class Sends {

    private Sends() {}

    /** SendStreamingMessage for the active turn: contextId empty on the first turn, then the agent's; never a taskId. */
    static void send(Step s) {
        s.phase(Phase.SENDING);
        openCall(s, false);
        s.retries(r -> r.withSendAttempts(r.sendAttempts() + 1));
        s.view(TurnView.SENDING);
        Turn t = s.turn();
        Message message = Message.userText(t.messageId(), prefixed(s, t.actor(), t.text()), s.session().contextId(),
                null, actorMetadata(t.actor()));
        long gen = s.nextGen();
        s.emit(new Effect.SendStream(gen, message));
        Timers.armSilence(s, gen);
    }

    /** A new stream (a send or a subscription) has delivered nothing yet. */
    static void openCall(Step s, boolean subscription) {
        s.following(f -> f.withLastEventWasTask(false).withSubscribed(subscription));
    }

    /** A person's text starts with {@code [Platform: Name (id) <email>]} and a newline. */
    static String prefixed(Step s, Actor actor, String text) {
        if (actor == null) {
            return text;
        }
        StringBuilder p = new StringBuilder("[").append(s.session().platform().label()).append(": ");
        p.append(Step.isBlank(actor.name()) ? actor.id() : actor.name());
        p.append(" (").append(actor.id()).append(")");
        if (!Step.isBlank(actor.email())) {
            p.append(" <").append(actor.email()).append(">");
        }
        return p.append("]\n").append(text).toString();
    }

    /** metadata["agentkourier.dev/actor"] = {id, name, email} on a person's turn only (null on a trigger's). */
    static Map<String, Object> actorMetadata(Actor actor) {
        if (actor == null) {
            return null;
        }
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("id", actor.id());
        if (!Step.isBlank(actor.name())) {
            a.put("name", actor.name());
        }
        if (!Step.isBlank(actor.email())) {
            a.put("email", actor.email());
        }
        return Map.of(Engine.ACTOR_KEY, a);
    }
}
