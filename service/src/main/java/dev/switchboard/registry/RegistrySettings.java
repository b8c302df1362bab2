package dev.switchboard.registry;

import java.util.List;

/**
 * {@code Server.spec.registry}: what agents registered over the API may be.
 *
 * @param allowedHosts when not empty, a registered agent's host must match one of these: CIDR blocks
 *     ({@code 10.0.0.0/8}) matched against the resolved address, or host patterns ({@code *.agents.example})
 *     matched against the name; link-local and metadata addresses are refused whatever this says
 * @param maxRegistrations dynamic registrations held at once; more are refused with 429 (default 1,000)
 */
public record RegistrySettings(List<String> allowedHosts, int maxRegistrations) {

    public static final RegistrySettings DEFAULTS = new RegistrySettings(List.of(), 1000);

    public RegistrySettings {
        allowedHosts = List.copyOf(allowedHosts);
    }
}
