/**
 * Alert triggers (B15): {@code POST /triggers/{name}} endpoints whose callers (Alertmanager's webhook, or a generic
 * {@code {title, text, fields}}) start turns with no person ({@link TriggerRoutes}, {@link Triggers}): one thread per
 * alert group, one turn per notification, with a rate limit per trigger. Hands its turns to the bridge's
 * {@code SessionDriver} and keeps which thread each group went to in the chat store.
 */
package dev.switchboard.trigger;
