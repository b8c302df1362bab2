package dev.switchboard.config;

/** A key of a Secret resource. */
public record SecretRef(String name, String key) {}
