/**
 * The operator's endpoints: {@code /healthz}, and {@code /readyz} from the {@link Readiness} conditions that start-up
 * and shutdown set ({@link HealthRoutes}); {@code /metrics} in the Prometheus text format with the standard JVM and
 * process metrics ({@link MetricsRoutes}, {@link StandardMetrics}), and who may read it ({@link MetricsAccess}).
 */
package dev.switchboard.ops;
