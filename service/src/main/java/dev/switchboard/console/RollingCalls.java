package dev.switchboard.console;

import dev.switchboard.gateway.GatewayMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * The last hour of each agent's gateway calls, minute by minute, in memory: requests, errors and a latency histogram
 * from which p50 and p99 are read (as the upper bound of the bucket they fall in). No Prometheus needed for the
 * console's chart; the figures are this process's only (each replica shows its own), and start afresh at a restart.
 * Only agents the registry knows are kept, so a caller naming made-up ids grows nothing.
 */
public final class RollingCalls implements GatewayMetrics.CallObserver {

    static final int MINUTES = 60;
    /** Upper bounds of the latency buckets, in milliseconds; a last bucket takes anything slower. */
    static final long[] BOUNDS_MS = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000,
            300_000};

    /** One minute of one agent's calls; percentiles are null when no call of the minute was timed. */
    public record Minute(long startMillis, long requests, long errors, Long p50Ms, Long p99Ms) {}

    private final LongSupplier nowMillis;
    private final Predicate<String> known;
    private final ConcurrentHashMap<String, Ring> agents = new ConcurrentHashMap<>();

    public RollingCalls(LongSupplier nowMillis, Predicate<String> known) {
        this.nowMillis = nowMillis;
        this.known = known;
    }

    @Override
    public void call(String agentId, boolean ok, long nanos) {
        Ring r = agents.get(agentId);
        if (r == null) {
            if (!known.test(agentId)) {
                return;
            }
            r = agents.computeIfAbsent(agentId, k -> new Ring());
        }
        r.add(nowMillis.getAsLong() / 60_000, ok, nanos);
    }

    public void forget(String agentId) {
        agents.remove(agentId);
    }

    /** The last {@link #MINUTES} minutes, oldest first, the current one last. */
    public List<Minute> lastHour(String agentId) {
        Ring r = agents.get(agentId);
        long now = nowMillis.getAsLong() / 60_000;
        List<Minute> out = new ArrayList<>(MINUTES);
        for (long m = now - MINUTES + 1; m <= now; m++) {
            out.add(r == null ? new Minute(m * 60_000, 0, 0, null, null) : r.minute(m));
        }
        return out;
    }

    private static final class Ring {
        private final long[] minuteOf = new long[MINUTES];
        private final long[] requests = new long[MINUTES];
        private final long[] errors = new long[MINUTES];
        private final long[][] buckets = new long[MINUTES][BOUNDS_MS.length + 1];

        Ring() {
            java.util.Arrays.fill(minuteOf, -1);
        }

        synchronized void add(long minute, boolean ok, long nanos) {
            int slot = (int) (minute % MINUTES);
            if (minuteOf[slot] != minute) {
                minuteOf[slot] = minute;
                requests[slot] = 0;
                errors[slot] = 0;
                java.util.Arrays.fill(buckets[slot], 0);
            }
            requests[slot]++;
            if (!ok) {
                errors[slot]++;
            }
            if (nanos >= 0) {
                long ms = nanos / 1_000_000;
                int b = 0;
                while (b < BOUNDS_MS.length && ms > BOUNDS_MS[b]) {
                    b++;
                }
                buckets[slot][b]++;
            }
        }

        synchronized Minute minute(long minute) {
            int slot = (int) (minute % MINUTES);
            if (minuteOf[slot] != minute) {
                return new Minute(minute * 60_000, 0, 0, null, null);
            }
            return new Minute(minute * 60_000, requests[slot], errors[slot], quantile(buckets[slot], 0.5),
                    quantile(buckets[slot], 0.99));
        }

        private static Long quantile(long[] counts, double q) {
            long total = 0;
            for (long c : counts) {
                total += c;
            }
            if (total == 0) {
                return null;
            }
            long rank = (long) Math.ceil(q * total);
            long seen = 0;
            for (int b = 0; b < counts.length; b++) {
                seen += counts[b];
                if (seen >= rank) {
                    return b < BOUNDS_MS.length ? BOUNDS_MS[b] : BOUNDS_MS[BOUNDS_MS.length - 1] * 2;
                }
            }
            return null;
        }
    }
}
