package dev.switchboard.registry;

/** Where a registration came from: the config file (never expires) or the registry API (expires without heartbeats). */
public enum AgentOrigin {
    CONFIG,
    DYNAMIC
}
