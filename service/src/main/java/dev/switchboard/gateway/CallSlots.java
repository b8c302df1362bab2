package dev.switchboard.gateway;

import dev.switchboard.policy.CallerLimits;
import dev.switchboard.registry.ConcurrencyLimiter;

/**
 * A call's places under its agent's cap and its caller's: taken together, given back together, each at most once
 * (both releases are idempotent), on whichever path the call ends.
 */
record CallSlots(ConcurrencyLimiter.Permit agent, CallerLimits.Slot caller) {

    void release() {
        agent.release();
        caller.release();
    }
}
