package dev.switchboard.protocol.model;

/** Who wrote a message. 1.0 spells {@code ROLE_USER}, 0.3 spells {@code user}. */
public enum Role {
    UNSPECIFIED,
    USER,
    AGENT
}
