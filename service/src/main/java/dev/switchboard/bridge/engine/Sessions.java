package dev.switchboard.bridge.engine;

import java.util.List;

/**
 * Chat messages becoming turns, and the queue behind the active one (B7). Seed: Replies, "Run one task
 * per context at a time" and "Treat a repeated messageId as the same turn" (the driver drops a message
 * already in the thread before the engine sees it); the reply to a question is its answer (Questions).
 */
final class Sessions {

    private Sessions() {}

    static void chatMessage(Step s, Input.ChatMessage m) {
        if (carries(s.session(), m.messageId())) {
            return;
        }
        Turn active = s.session().active().orElse(null);
        if (active != null && active.phase() == Phase.PAUSED_INPUT) {
            Questions.answer(s, m);
            return;
        }
        boolean first = s.session().turns().isEmpty();
        s.insert(s.session().turns().size(), Turn.accepted(m.messageId(), m.text(), m.actor(), s.now, m.trace()));
        int index = s.session().turns().size() - 1;
        if (active == null) {
            Discovery.begin(s);
            if (!first) {
                s.view(index, TurnView.QUEUED);
            }
            return;
        }
        // Replies: while a task of the session is recorded, no new turn is sent; replies queue behind it
        s.view(index, TurnView.QUEUED);
        if (active.phase() == Phase.PAUSED_AUTH && s.isA2a()) {
            // Task states, auth-required: on a2a a typed reply makes us read the task again
            Following.readTask(s);
        }
    }

    /**
     * A message the session still carries: a turn's own, or an answer to a turn's question. The driver drops
     * a repeated delivery before it gets here (it finds the message among the thread's posts, which outlive
     * the turn); this only keeps a repeat handed to the engine directly from becoming a second turn.
     */
    private static boolean carries(Session session, String messageId) {
        for (Turn t : session.turns()) {
            if (t.messageId().equals(messageId) || t.answerMessageIds().contains(messageId)) {
                return true;
            }
        }
        return false;
    }

    /** Removes finished turns and starts the next queued one (B7: one task per context at a time). */
    /**
     * The Binding is gone: each unfinished turn, the active one and those queued behind it, ends with
     * {@link Notices#BINDING_REMOVED}: failed when the agent had taken it (a task), not delivered otherwise. The
     * agent's task cannot be cancelled: nothing says where the agent is any more.
     */
    static void bindingRemoved(Step s) {
        if (s.session().turns().isEmpty()) {
            return;
        }
        if (s.session().active().isPresent()) {
            s.emit(new Effect.CloseStream());
        }
        while (!s.session().turns().isEmpty()) {
            if (s.turn().phase() != Phase.DONE) {
                s.notice(Notices.BINDING_REMOVED);
                if (s.turn().taskId() != null) {
                    s.done(Outcome.FAILED, TurnView.FAILED);
                } else {
                    s.done(Outcome.NOT_DELIVERED, TurnView.NOT_DELIVERED);
                }
            }
            // dropped one by one, so that no queued turn begins
            s.session(x -> x.withTurns(x.turns().subList(1, x.turns().size())));
        }
    }

    static void finishDoneTurns(Step s) {
        List<Turn> turns = s.session().turns();
        List<Turn> left = turns.stream().filter(t -> t.phase() != Phase.DONE).toList();
        if (left.size() == turns.size()) {
            return;
        }
        s.session(x -> x.withTurns(left));
        if (!left.isEmpty() && left.get(0).phase() == Phase.QUEUED) {
            Discovery.begin(s);
        }
    }
}
