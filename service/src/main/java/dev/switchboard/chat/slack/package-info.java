/**
 * Slack as a bridge {@code ChatPlatform} (C2, {@link SlackPlatform}): a Slack app's events, by signed HTTP requests
 * or a Socket Mode connection, turned into the bridge's inputs in the order Slack sent them ({@link SlackIntake}); posts
 * shown and edited in Slack threads through the Web API on the official SDK ({@link SlackPoster}, {@link SlackApi}); who
 * may approve a kagent tool call, who wrote a message, and Slack's own tables in the chat store. The bridge does not
 * know it.
 */
package dev.switchboard.chat.slack;
