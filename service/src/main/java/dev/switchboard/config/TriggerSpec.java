package dev.switchboard.config;

import dev.switchboard.trigger.TriggerFormat;

/**
 * A {@code Trigger} resource: an endpoint, {@code POST /triggers/<name>}, whose callers (Alertmanager, a script)
 * start turns with no person in the first channel of {@code bindingRef}. Callers authenticate with the token in
 * {@code tokenSecretRef} as a bearer token.
 *
 * @param perMinute the sustained rate (default 60)
 * @param burst requests at once before the rate applies (default a tenth of perMinute, at least 10)
 */
public record TriggerSpec(String name, String bindingRef, TriggerFormat format, SecretRef tokenSecretRef, int perMinute,
        int burst) {}
