/**
 * A fake Slack workspace for tests ({@link FakeSlack}): the Web API methods a bridge calls, Events API deliveries
 * signed as Slack signs them ({@link SlackEvents}), a Socket Mode server, Block Kit's limits, and scripted faults.
 * Self-contained: no other package of ours, no Slack SDK.
 */
package dev.switchboard.testkit.slack;
