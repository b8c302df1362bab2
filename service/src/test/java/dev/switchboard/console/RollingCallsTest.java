package dev.switchboard.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The console's last hour per agent: minutes roll over, old minutes are forgotten, percentiles read from buckets. */
class RollingCallsTest {

    private final AtomicLong now = new AtomicLong(1_000 * 60_000L + 5_000);
    private final RollingCalls calls = new RollingCalls(now::get, Set.of("a")::contains);

    @Test
    void aMinutesCallsCountWithTheirErrorsAndPercentiles() {
        for (int i = 0; i < 98; i++) {
            calls.call("a", true, 3_000_000); // 3 ms: the 5 ms bucket
        }
        calls.call("a", false, 400_000_000); // 400 ms: the 500 ms bucket
        calls.call("a", false, -1); // not timed
        List<RollingCalls.Minute> hour = calls.lastHour("a");
        assertThat(hour).hasSize(60);
        RollingCalls.Minute last = hour.get(59);
        assertThat(last.requests()).isEqualTo(100);
        assertThat(last.errors()).isEqualTo(2);
        assertThat(last.p50Ms()).isEqualTo(5);
        assertThat(last.p99Ms()).isEqualTo(500);
        assertThat(hour.get(58).requests()).isZero();
        assertThat(hour.get(58).p50Ms()).isNull();
    }

    @Test
    void minutesMoveOnAndAnHourLaterTheyAreGone() {
        calls.call("a", true, 1_000_000);
        now.addAndGet(60_000);
        calls.call("a", true, 1_000_000);
        calls.call("a", true, 1_000_000);
        List<RollingCalls.Minute> hour = calls.lastHour("a");
        assertThat(hour.get(58).requests()).isEqualTo(1);
        assertThat(hour.get(59).requests()).isEqualTo(2);
        assertThat(hour.get(59).startMillis() - hour.get(58).startMillis()).isEqualTo(60_000);
        now.addAndGet(60 * 60_000L); // an hour on: the slots are reused, not summed
        calls.call("a", true, 1_000_000);
        assertThat(calls.lastHour("a").stream().mapToLong(RollingCalls.Minute::requests).sum()).isEqualTo(1);
    }

    @Test
    void anIdTheRegistryDoesNotKnowGrowsNothing() {
        calls.call("made-up", true, 1_000_000);
        assertThat(calls.lastHour("made-up").stream().mapToLong(RollingCalls.Minute::requests).sum()).isZero();
        calls.call("a", true, 1_000_000);
        calls.forget("a");
        assertThat(calls.lastHour("a").stream().mapToLong(RollingCalls.Minute::requests).sum()).isZero();
    }
}
