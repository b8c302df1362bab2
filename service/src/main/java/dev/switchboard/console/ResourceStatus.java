package dev.switchboard.console;

/**
 * One Switchboard resource's Ready condition as watch mode last decided it (the console's Kubernetes list).
 *
 * @param ready {@code True} or {@code False}
 */
public record ResourceStatus(String kind, String name, String ready, String reason, String message,
        long observedGeneration) {}
