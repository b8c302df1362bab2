/**
 * Front door 2, the chat bridge ({@link BridgeService}): the {@link SessionDriver} runs the pure engine for real —
 * each thread's inputs serial on a lane, each step stored before its effects run, calls through {@code client}, timers,
 * and leased sessions when replicas share PostgreSQL ({@link SessionLeases}). Chat platforms plug in through
 * {@link ChatPlatform}; the bridge knows none of them. Also: Bindings as they run, untrusted-data blocks, trace context,
 * metrics and spans.
 */
package dev.switchboard.bridge;
