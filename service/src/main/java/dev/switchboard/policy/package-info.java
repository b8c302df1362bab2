/**
 * Who may call which agent with which method ({@link dev.switchboard.policy.Grants}, from the AccessPolicy resources)
 * and how fast ({@link dev.switchboard.policy.CallerLimits}): decided after the caller is known and before any agent
 * is contacted. See docs/access-policy.md.
 */
package dev.switchboard.policy;
