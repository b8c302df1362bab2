/**
 * Front door 1, the A2A gateway: {@code POST /a2a/{agentId}} authenticated, capped and relayed byte for byte to
 * the registered agent over Netty connections pooled per event loop, so a call stays on the thread that took it
 * ({@link GatewayHandler}, {@link AgentConnections}; G1–G8, G11); agent cards rewritten to point at the gateway
 * ({@link CardRoutes}, G10); which headers pass, timeouts, egress checks, the gateway's own JSON-RPC errors, metrics and
 * spans. Finds agents in {@code registry}; knows nothing of the bridge.
 */
package dev.switchboard.gateway;
