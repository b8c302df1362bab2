package dev.switchboard.bridge.engine;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * One step's working state: the session as changed so far and the effects collected, with the moves
 * every rule shares. The rules (one class per section of the seed) act on the active turn, the
 * session's first; a turn and a session are immutable, so a change replaces them.
 */
final class Step {

    final ContractDurations d;
    final int maxAnswerChars;
    final Instant now;
    private Session session;
    private final List<Effect> effects = new ArrayList<>();

    Step(Session session, Instant now, ContractDurations d, int maxAnswerChars) {
        this.session = session;
        this.now = now;
        this.d = d;
        this.maxAnswerChars = maxAnswerChars;
    }

    Session session() {
        return session;
    }

    void session(UnaryOperator<Session> change) {
        session = change.apply(session);
    }

    List<Effect> effects() {
        return effects;
    }

    void emit(Effect effect) {
        effects.add(effect);
    }

    // ---- the active turn ----

    Turn turn() {
        return session.turns().get(0);
    }

    void turn(UnaryOperator<Turn> change) {
        replace(0, change.apply(turn()));
    }

    void progress(UnaryOperator<Turn.Progress> change) {
        turn(t -> t.withProgress(change.apply(t.progress())));
    }

    void retries(UnaryOperator<Turn.Retries> change) {
        turn(t -> t.withRetries(change.apply(t.retries())));
    }

    void following(UnaryOperator<Turn.Following> change) {
        turn(t -> t.withFollowing(change.apply(t.following())));
    }

    void cancelling(UnaryOperator<Turn.Cancelling> change) {
        turn(t -> t.withCancelling(change.apply(t.cancelling())));
    }

    void question(UnaryOperator<Turn.Question> change) {
        turn(t -> t.withQuestion(change.apply(t.question())));
    }

    void phase(Phase phase) {
        turn(t -> t.withPhase(phase));
    }

    /** The active turn's visible state; reported only when it changes. */
    void view(TurnView view) {
        view(0, view);
    }

    void view(int index, TurnView view) {
        Turn t = session.turns().get(index);
        if (t.view() != view) {
            replace(index, t.withView(view));
            effects.add(new Effect.TurnStateChanged(t.messageId(), view));
        }
    }

    void insert(int index, Turn turn) {
        List<Turn> turns = new ArrayList<>(session.turns());
        turns.add(index, turn);
        session = session.withTurns(turns);
    }

    private void replace(int index, Turn turn) {
        List<Turn> turns = new ArrayList<>(session.turns());
        turns.set(index, turn);
        session = session.withTurns(turns);
    }

    /** A notice in the thread about the active turn. */
    void notice(String text) {
        effects.add(new Effect.PostNotice(turn().messageId(), text));
    }

    // ---- generations and endings ----

    long nextGen() {
        session = session.withGen(session.gen() + 1);
        return session.gen();
    }

    void notDelivered(String notice) {
        notice(notice);
        done(Outcome.NOT_DELIVERED, TurnView.NOT_DELIVERED);
    }

    void done(Outcome outcome, TurnView view) {
        turn(t -> t.withPhase(Phase.DONE).withOutcome(outcome));
        view(view);
        nextGen(); // anything still in flight for it is now stale
    }

    boolean isA2a() {
        return session.dialect() == Dialect.A2A;
    }

    static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }
}
