package dev.switchboard.ops;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.instrumentation.jvm.JvmBufferPoolMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmClassLoadingMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmGarbageCollectorMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmMemoryMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmRuntimeInfoMetric;
import io.prometheus.metrics.instrumentation.jvm.JvmThreadsMetrics;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The metrics every Prometheus dashboard expects of a JVM process, under the Prometheus client's standard
 * names ({@code process_resident_memory_bytes}, {@code process_open_fds}, {@code process_cpu_seconds_total},
 * {@code jvm_memory_used_bytes}, {@code jvm_gc_collection_seconds}, {@code jvm_threads_current}, ...),
 * served by the same {@code /metrics} as ours.
 *
 * <p>Registered one by one rather than through {@code JvmMetrics}, which remembers every registry it was
 * given in a static set (a leak when a JVM starts many apps, as the tests do). Micrometer's own JVM binders
 * are not bound beside these: their names differ from what dashboards query, and some would collide.
 * {@code JvmMemoryPoolAllocationMetrics} is left out: it adds a GC listener that cannot be removed again.
 */
public final class StandardMetrics {

    private StandardMetrics() {}

    public static void register(PrometheusMeterRegistry meters) {
        PrometheusRegistry registry = meters.getPrometheusRegistry();
        ProcessMetrics.builder().register(registry);
        JvmMemoryMetrics.builder().register(registry);
        JvmBufferPoolMetrics.builder().register(registry);
        JvmGarbageCollectorMetrics.builder().register(registry);
        JvmThreadsMetrics.builder().register(registry);
        JvmClassLoadingMetrics.builder().register(registry);
        JvmRuntimeInfoMetric.builder().register(registry);
    }
}
