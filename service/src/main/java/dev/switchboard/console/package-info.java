/**
 * The operator's console at {@code /console}: a page (plain ES modules, no build step) over a JSON API under
 * {@code /console/api/}, read by whoever may read {@code /metrics} ({@link dev.switchboard.ops.MetricsAccess}): the
 * registry with every agent's reachability from a periodic card probe ({@link CardProbe}), one agent's cards, limits,
 * calls in flight and the last hour's traffic from in-process rolling figures ({@link RollingCalls}), and the chat
 * bridge's sessions and turns by state ({@link ConsoleRoutes}).
 */
package dev.switchboard.console;
