/**
 * Server-sent events as bytes and frames, with no JSON and no I/O: an incremental, size-capped {@link SseReader} and
 * an {@link SseWriter} that refuses what would break a frame. Depends on nothing but {@code java.*}.
 */
package dev.switchboard.protocol.sse;
