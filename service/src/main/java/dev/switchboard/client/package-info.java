/**
 * The chat bridge's outbound A2A client ({@link A2aAgentClient}): the card fetch and the JSON-RPC calls the agent
 * contract makes, in 1.0 or 0.3 as the {@link AgentEndpoint} says, on Vert.x's HTTP client. Every call has a deadline on
 * its response headers, a capped body and an idle limit, and every failure is typed as a
 * {@link dev.switchboard.protocol.CallFailure} (the type the engine decides on, too). Uses only {@code protocol} of
 * ours; used by {@code bridge} and {@code check} (the gateway relays with its own connections).
 */
package dev.switchboard.client;
