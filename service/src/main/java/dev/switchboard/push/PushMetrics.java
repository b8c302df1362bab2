package dev.switchboard.push;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** {@code switchboard_gateway_push_delivered_total}, {@code _retried_total}, {@code _dropped_total}. */
public final class PushMetrics {

    private final Counter delivered;
    private final Counter retried;
    private final Counter dropped;

    public PushMetrics(MeterRegistry meters) {
        delivered = Counter.builder("switchboard_gateway_push_delivered_total")
                .description("Push notifications delivered to callers' URLs").register(meters);
        retried = Counter.builder("switchboard_gateway_push_retried_total")
                .description("Failed push deliveries that will be tried again").register(meters);
        dropped = Counter.builder("switchboard_gateway_push_dropped_total")
                .description("Push notifications given up (attempts exhausted, refused, or config gone)").register(meters);
    }

    void delivered() {
        delivered.increment();
    }

    void retried() {
        retried.increment();
    }

    void dropped() {
        dropped.increment();
    }
}
