/**
 * Push notifications through the gateway (issue 26): callers' push configs and the outbox of notifications to
 * deliver to them, kept in the store, and their delivery with retries and backoff under the egress policy.
 */
package dev.switchboard.push;
