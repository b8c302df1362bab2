package dev.switchboard.testkit.slack;

/**
 * Who the fake workspace says the app is. Tests mostly take {@link #defaults()} and change one thing.
 *
 * @param botToken the bot token ({@code xoxb-…}) every Web API method but {@code apps.connections.open} requires
 * @param appToken the app-level token ({@code xapp-…}) {@code apps.connections.open} requires
 * @param teamId the workspace id in {@code auth.test} and event envelopes
 * @param botUserId the bot's user id: {@code auth.test}'s {@code user_id}, the author of what the bot posts
 * @param botId the bot id ({@code bot_id}) on what the bot posts
 * @param appId the app id in event envelopes and the Socket Mode hello
 * @param emailScope whether {@code users:read.email} is granted: without it {@code users.info} leaves out
 *     {@code profile.email}, as Slack does
 */
public record FakeSlackOptions(
        String botToken,
        String appToken,
        String teamId,
        String botUserId,
        String botId,
        String appId,
        boolean emailScope) {

    public FakeSlackOptions {
        botToken = orDefault(botToken, "xoxb-test");
        appToken = orDefault(appToken, "xapp-test");
        teamId = orDefault(teamId, "T0001");
        botUserId = orDefault(botUserId, "UBOT");
        botId = orDefault(botId, "B0001");
        appId = orDefault(appId, "A0001");
    }

    /** xoxb-test, xapp-test, T0001, UBOT, B0001, A0001, email scope granted. */
    public static FakeSlackOptions defaults() {
        return new FakeSlackOptions(null, null, null, null, null, null, true);
    }

    public FakeSlackOptions withEmailScope(boolean granted) {
        return new FakeSlackOptions(botToken, appToken, teamId, botUserId, botId, appId, granted);
    }

    public FakeSlackOptions withTokens(String newBotToken, String newAppToken) {
        return new FakeSlackOptions(newBotToken, newAppToken, teamId, botUserId, botId, appId, emailScope);
    }

    private static String orDefault(String value, String fallback) {
        return value == null || value.isBlank() ? fallback : value;
    }
}
