package dev.switchboard.registry;

import java.time.Duration;
import java.util.List;

/**
 * {@code Server.spec.registry}: what agents registered over the API may be.
 *
 * @param allowedHosts when not empty, a registered agent's host must match one of these: CIDR blocks
 *     ({@code 10.0.0.0/8}) matched against the resolved address, or host patterns ({@code *.agents.example})
 *     matched against the name; link-local and metadata addresses are refused whatever this says
 * @param maxRegistrations dynamic registrations held at once; more are refused with 429 (default 1,000)
 * @param probeInterval how often the console's probe fetches every agent's card to say whether it is reachable
 */
public record RegistrySettings(List<String> allowedHosts, int maxRegistrations, Duration probeInterval) {

    public static final Duration DEFAULT_PROBE_INTERVAL = Duration.ofSeconds(30);
    public static final RegistrySettings DEFAULTS = new RegistrySettings(List.of(), 1000);

    public RegistrySettings(List<String> allowedHosts, int maxRegistrations) {
        this(allowedHosts, maxRegistrations, DEFAULT_PROBE_INTERVAL);
    }

    public RegistrySettings {
        allowedHosts = List.copyOf(allowedHosts);
        probeInterval = probeInterval == null ? DEFAULT_PROBE_INTERVAL : probeInterval;
    }
}
