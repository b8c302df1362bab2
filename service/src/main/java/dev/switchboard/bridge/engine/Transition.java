package dev.switchboard.bridge.engine;

import java.util.List;

/** The result of one step: the new session state and the effects to run, in order, after it is stored. */
public record Transition(Session session, List<Effect> effects) {}
