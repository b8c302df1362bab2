package dev.switchboard.policy;

/**
 * {@code Server.spec.gateway.callerLimits}: limits per gateway caller, each off when null (the default: none).
 *
 * @param perCaller tokens per caller, all agents together
 * @param perAgent tokens per caller × agent (an AccessPolicy's {@code rateLimit} replaces it for what it grants)
 * @param maxConcurrency calls in flight per caller; 0: no cap
 */
public record CallerLimitSettings(Rate perCaller, Rate perAgent, int maxConcurrency) {

    public static final CallerLimitSettings OFF = new CallerLimitSettings(null, null, 0);

    /** {@code rate} tokens a second, {@code burst} at once. */
    public record Rate(double rate, int burst) {}
}
