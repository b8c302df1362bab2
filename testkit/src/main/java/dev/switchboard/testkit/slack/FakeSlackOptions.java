package dev.switchboard.testkit.slack;

/**
 * Who the fake workspace says the app is. Tests mostly take {@link #defaults()} and change one thing.
 *
 * @param botToken the bot token ({@code xoxb-…}) every Web API method but {@code apps.connections.open} requires;
 *     give the SDK tokens of 16 characters or more (see {@link #DEFAULT_BOT_TOKEN})
 * @param appToken the app-level token ({@code xapp-…}) {@code apps.connections.open} requires
 * @param teamId the workspace id in {@code auth.test} and event envelopes
 * @param botUserId the bot's user id: {@code auth.test}'s {@code user_id}, the author of what the bot posts
 * @param botId the bot id ({@code bot_id}) on what the bot posts
 * @param appId the app id in event envelopes and the Socket Mode hello
 * @param emailScope whether {@code users:read.email} is granted: without it {@code users.info} leaves out
 *     {@code profile.email}, as Slack does
 * @param nativeStreaming whether the workspace takes {@code chat.startStream} / {@code appendStream} /
 *     {@code stopStream}; without it they answer {@code unknown_method}, as an older Slack would (the default, so
 *     that apps in {@code streaming: auto} edit messages unless a test turns streaming on)
 */
public record FakeSlackOptions(
        String botToken,
        String appToken,
        String teamId,
        String botUserId,
        String botId,
        String appId,
        boolean emailScope,
        boolean nativeStreaming) {

    /**
     * At least 16 characters, like every real token: the SDK logs {@code token.substring(0, 16)} at DEBUG when it
     * resolves a token's team (its hidden {@code auth.test}), so a shorter token throws
     * StringIndexOutOfBoundsException inside the SDK whenever DEBUG logging is on (logback's default).
     */
    public static final String DEFAULT_BOT_TOKEN = "xoxb-fake-bot-token";

    /** At least 16 characters, as {@link #DEFAULT_BOT_TOKEN}. */
    public static final String DEFAULT_APP_TOKEN = "xapp-fake-app-token";

    public FakeSlackOptions {
        botToken = orDefault(botToken, DEFAULT_BOT_TOKEN);
        appToken = orDefault(appToken, DEFAULT_APP_TOKEN);
        teamId = orDefault(teamId, "T0001");
        botUserId = orDefault(botUserId, "UBOT");
        botId = orDefault(botId, "B0001");
        appId = orDefault(appId, "A0001");
    }

    /** xoxb-fake-bot-token, xapp-fake-app-token, T0001, UBOT, B0001, A0001, email scope granted. */
    public static FakeSlackOptions defaults() {
        return new FakeSlackOptions(null, null, null, null, null, null, true, false);
    }

    public FakeSlackOptions withEmailScope(boolean granted) {
        return new FakeSlackOptions(botToken, appToken, teamId, botUserId, botId, appId, granted, nativeStreaming);
    }

    public FakeSlackOptions withTokens(String newBotToken, String newAppToken) {
        return new FakeSlackOptions(newBotToken, newAppToken, teamId, botUserId, botId, appId, emailScope,
                nativeStreaming);
    }

    public FakeSlackOptions withNativeStreaming(boolean supported) {
        return new FakeSlackOptions(botToken, appToken, teamId, botUserId, botId, appId, emailScope, supported);
    }

    private static String orDefault(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }
}
