package dev.switchboard.config;

/**
 * {@code Server.spec.ops.listen}: a second address that serves {@code /metrics} (which the main port then does not)
 * and the probes, for a scraper on a port the agents' callers cannot reach.
 *
 * @param host listen address
 * @param port listen port (0 picks a free one)
 */
public record OpsListen(String host, int port) {}
