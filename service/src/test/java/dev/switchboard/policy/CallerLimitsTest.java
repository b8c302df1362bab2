package dev.switchboard.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Token buckets and the concurrency cap per caller, on a virtual clock: nothing here sleeps. */
class CallerLimitsTest {

    private static final long SECOND = 1_000_000_000L;
    private final AtomicLong now = new AtomicLong(1_000 * SECOND);

    @Test
    void aBucketLetsBurstThroughThenOneTokenPerInterval() {
        TokenBucket bucket = new TokenBucket(2, 3, now::get);
        assertThat(bucket.take()).isZero();
        assertThat(bucket.take()).isZero();
        assertThat(bucket.take()).isZero();
        long wait = bucket.take();
        assertThat(wait).as("the next token is half a second away").isEqualTo(SECOND / 2);
        assertThat(TokenBucket.retryAfterSeconds(wait)).isEqualTo(1);
        now.addAndGet(SECOND / 2);
        assertThat(bucket.take()).isZero();
        assertThat(bucket.take()).isPositive();
        assertThat(bucket.idle()).isFalse();
        now.addAndGet(10 * SECOND);
        assertThat(bucket.idle()).isTrue();
    }

    @Test
    void retryAfterRoundsUp() {
        TokenBucket slow = new TokenBucket(0.25, 1, now::get);
        assertThat(slow.take()).isZero();
        assertThat(TokenBucket.retryAfterSeconds(slow.take())).isEqualTo(4);
        now.addAndGet(SECOND / 10);
        assertThat(TokenBucket.retryAfterSeconds(slow.take())).isEqualTo(4);
        now.addAndGet(SECOND);
        assertThat(TokenBucket.retryAfterSeconds(slow.take())).isEqualTo(3);
    }

    @Test
    void perCallerAndPerCallerAgentBucketsAreSeparate() {
        CallerLimits limits = new CallerLimits(new CallerLimitSettings(new CallerLimitSettings.Rate(1, 3),
                new CallerLimitSettings.Rate(1, 1), 0), now::get);
        assertThat(limits.take("ci", "echo", null)).isNull();
        CallerLimits.Limited pair = limits.take("ci", "echo", null);
        assertThat(pair.limit()).isEqualTo(CallerLimits.Limit.CALLER_AGENT);
        assertThat(limits.take("ci", "other", null)).as("another agent: its own bucket").isNull();
        assertThat(limits.take("ops", "echo", null)).as("another caller: its own buckets").isNull();
        assertThat(limits.take("ci", "third", null).limit()).as("ci's own bucket is empty now")
                .isEqualTo(CallerLimits.Limit.CALLER);
        now.addAndGet(SECOND);
        assertThat(limits.take("ci", "echo", null)).isNull();
    }

    @Test
    void aPolicysRateReplacesThePerAgentOne() {
        CallerLimits limits = new CallerLimits(new CallerLimitSettings(null, new CallerLimitSettings.Rate(1, 1), 0),
                now::get);
        CallerLimitSettings.Rate generous = new CallerLimitSettings.Rate(100, 5);
        for (int i = 0; i < 5; i++) {
            assertThat(limits.take("ci", "echo", generous)).isNull();
        }
        assertThat(limits.take("ci", "echo", generous)).isNotNull();
    }

    @Test
    void offByDefault() {
        CallerLimits limits = new CallerLimits(CallerLimitSettings.OFF, now::get);
        for (int i = 0; i < 1000; i++) {
            assertThat(limits.take("ci", "echo", null)).isNull();
        }
        assertThat(limits.acquire("ci")).isSameAs(CallerLimits.Slot.NONE);
        assertThat(limits.buckets()).isZero();
    }

    @Test
    void theConcurrencyCapIsReleasedExactlyOnce() {
        CallerLimits limits = new CallerLimits(new CallerLimitSettings(null, null, 2), now::get);
        CallerLimits.Slot a = limits.acquire("ci");
        CallerLimits.Slot b = limits.acquire("ci");
        assertThat(limits.acquire("ci")).isNull();
        assertThat(limits.acquire("ops")).as("another caller's cap").isNotNull();
        a.release();
        a.release();
        assertThat(limits.inFlight("ci")).isEqualTo(1);
        CallerLimits.Slot c = limits.acquire("ci");
        assertThat(c).isNotNull();
        assertThat(limits.acquire("ci")).isNull();
        b.release();
        c.release();
        assertThat(limits.inFlight("ci")).isZero();
    }

    @Test
    void bucketsAreBoundedInNumber() {
        CallerLimits limits = new CallerLimits(new CallerLimitSettings(new CallerLimitSettings.Rate(1, 1), null, 0),
                now::get, 100);
        for (int i = 0; i < 1_000; i++) {
            limits.take("caller-" + i, "echo", null);
        }
        assertThat(limits.buckets()).isLessThanOrEqualTo(100);
    }
}
