/**
 * The built-in web chat (C1) as a bridge {@code ChatPlatform}: its JSON API and event streams under
 * {@code /api/chat} and the page at {@code /} ({@link WebChatRoutes}, {@link WebChatPlatform}); who the user is (a trusted
 * proxy's headers, an API key; {@link WebIdentity}), same-origin and no-framing rules, and the ids of its messages.
 * Talks to the bridge and its store; the bridge does not know it.
 */
package dev.switchboard.chat.web;
