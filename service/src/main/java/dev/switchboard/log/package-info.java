/**
 * The log: logback set up in code ({@link LogSetup}), written as text for people or one JSON object per line
 * ({@link LogFormat}), and the ids a line is about (agent, binding, thread, turn) as MDC keys for one call
 * ({@link LogContext}). Depends on no other package of ours.
 */
package dev.switchboard.log;
