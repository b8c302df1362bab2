package dev.switchboard.push;

/** A notification waiting for delivery to its config's URL. */
public record OutboxEntry(String id, String callbackId, String body, String contentType, int attempts, long nextAtMillis) {}
