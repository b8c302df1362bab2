/**
 * The agents behind the gateway: those of the configuration and those registered over the API (G9, at KubeMQ's
 * paths), with their ids, limits and origin ({@link AgentRegistry}, {@link RegistryRoutes}); the per-agent cap on calls in
 * flight (G4, {@link ConcurrencyLimiter}); and the {@link EgressPolicy} for where a registered agent may point.
 * Registrations survive restarts through the {@link RegistrationStore} interface, which the {@code store} package
 * implements.
 */
package dev.switchboard.registry;
