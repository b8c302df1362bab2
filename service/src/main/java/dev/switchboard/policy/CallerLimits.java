package dev.switchboard.policy;

import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Rate and concurrency limits per gateway caller ({@code Server.spec.gateway.callerLimits}, and an AccessPolicy's
 * {@code rateLimit}): a token bucket per caller, one per caller × agent, and a count of each caller's calls in flight.
 * In memory, per replica. The buckets are bounded in number: past {@link #MAX_BUCKETS} the idle (full) ones are
 * forgotten, which changes nothing, and if none is idle some are, which starts them full again (a caller is let
 * through a little more, never less).
 */
public final class CallerLimits {

    static final int MAX_BUCKETS = 50_000;

    /** Which limit refused a call: the {@code limit} label of {@code switchboard_gateway_rate_limited_total}. */
    public enum Limit {
        CALLER("caller"), CALLER_AGENT("caller_agent"), CALLER_CONCURRENCY("caller_concurrency");

        private final String label;

        Limit(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** A refusal: the limit, and the whole seconds until a retry may pass (Retry-After). */
    public record Limited(Limit limit, long retryAfterSeconds) {}

    private final CallerLimitSettings settings;
    private final LongSupplier nanos;
    private final int maxBuckets;
    private final ConcurrentHashMap<String, TokenBucket> perCaller = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, TokenBucket> perAgent = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Integer> inFlight = new ConcurrentHashMap<>();

    public CallerLimits(CallerLimitSettings settings, LongSupplier nanos) {
        this(settings, nanos, MAX_BUCKETS);
    }

    CallerLimits(CallerLimitSettings settings, LongSupplier nanos, int maxBuckets) {
        this.settings = settings;
        this.nanos = nanos;
        this.maxBuckets = maxBuckets;
    }

    public CallerLimitSettings settings() {
        return settings;
    }

    /**
     * Takes a token of the caller's bucket and of its bucket for the agent ({@code policyRate} when the granting
     * AccessPolicy sets one, else the server's {@code perAgent}); null when the call may go on, else the limit it is
     * over. A call refused by the second bucket has spent its token of the first: it was a call made.
     */
    public Limited take(String caller, String agent, CallerLimitSettings.Rate policyRate) {
        CallerLimitSettings.Rate own = settings.perCaller();
        if (own != null) {
            long wait = bucket(perCaller, caller, own).take();
            if (wait > 0) {
                return new Limited(Limit.CALLER, TokenBucket.retryAfterSeconds(wait));
            }
        }
        CallerLimitSettings.Rate pair = policyRate != null ? policyRate : settings.perAgent();
        if (pair != null) {
            // the rate is part of the key: a policy whose rate changed starts a bucket of the new rate
            String key = caller + '\u0000' + agent + '\u0000' + pair.rate() + '\u0000' + pair.burst();
            long wait = bucket(perAgent, key, pair).take();
            if (wait > 0) {
                return new Limited(Limit.CALLER_AGENT, TokenBucket.retryAfterSeconds(wait));
            }
        }
        return null;
    }

    /** A slot of the caller's concurrency cap ({@link Slot#NONE} when there is no cap), or null when it is full. */
    public Slot acquire(String caller) {
        int max = settings.maxConcurrency();
        if (max <= 0) {
            return Slot.NONE;
        }
        boolean[] taken = {false};
        inFlight.compute(caller, (k, n) -> {
            int now = n == null ? 0 : n;
            if (now >= max) {
                return n;
            }
            taken[0] = true;
            return now + 1;
        });
        return taken[0] ? new Slot(this, caller) : null;
    }

    /** The caller's calls in flight (0 when none: the count is dropped at zero, so the map holds only callers busy now). */
    public int inFlight(String caller) {
        return inFlight.getOrDefault(caller, 0);
    }

    int buckets() {
        return perCaller.size() + perAgent.size();
    }

    private void release(String caller) {
        inFlight.computeIfPresent(caller, (k, n) -> n <= 1 ? null : n - 1);
    }

    private TokenBucket bucket(ConcurrentHashMap<String, TokenBucket> buckets, String key, CallerLimitSettings.Rate rate) {
        TokenBucket b = buckets.get(key);
        if (b != null) {
            return b;
        }
        if (buckets.size() >= maxBuckets) {
            evict(buckets);
        }
        return buckets.computeIfAbsent(key, k -> new TokenBucket(rate.rate(), rate.burst(), nanos));
    }

    /** Forgets the full buckets; if that frees too little, some others, down to nine tenths of the bound. */
    private void evict(ConcurrentHashMap<String, TokenBucket> buckets) {
        buckets.values().removeIf(TokenBucket::idle);
        int target = maxBuckets - Math.max(1, maxBuckets / 10);
        Iterator<String> it = buckets.keySet().iterator();
        while (buckets.size() > target && it.hasNext()) {
            it.next();
            it.remove();
        }
    }

    /** One call's place under its caller's cap; {@link #release()} is idempotent. */
    public static final class Slot {
        public static final Slot NONE = new Slot(null, null);

        private final CallerLimits owner;
        private final String caller;
        private final AtomicBoolean released = new AtomicBoolean();

        private Slot(CallerLimits owner, String caller) {
            this.owner = owner;
            this.caller = caller;
        }

        public void release() {
            if (owner != null && released.compareAndSet(false, true)) {
                owner.release(caller);
            }
        }
    }
}
