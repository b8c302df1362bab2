package dev.switchboard.protocol.model;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** An extension the agent speaks, from {@code capabilities.extensions[]}. */
public record AgentExtension(String uri, String description, boolean required, ObjectNode params) {}
