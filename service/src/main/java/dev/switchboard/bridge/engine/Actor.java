package dev.switchboard.bridge.engine;

/** The person who wrote a chat message; name and email are null when the platform does not know them. */
public record Actor(String id, String name, String email) {}
