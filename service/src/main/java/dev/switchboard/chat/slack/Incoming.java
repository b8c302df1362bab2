package dev.switchboard.chat.slack;

import io.vertx.core.json.JsonObject;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a Slack event means to the bridge: a turn (a mention of the bot, or a direct message), a reply in a
 * thread that did not mention the bot (it reaches the agent inside the next turn, as untrusted data, or answers a
 * pending question), or nothing. The bot's own messages, other bots', edits, deletions and joins start nothing.
 */
sealed interface Incoming {

    /** A person's message addressed to the bot: a turn of its thread's session. */
    record Turn(String channel, String user, String text, String ts, String threadTs, boolean direct) implements Incoming {
        /** The thread key: {@code thread_ts}, else the message's own {@code ts}. */
        String threadKey() {
            return threadTs != null ? threadTs : ts;
        }
    }

    /** A person's reply in a thread that did not mention the bot. */
    record ThreadReply(String channel, String user, String text, String ts, String threadTs) implements Incoming {}

    /** Nothing for the bridge, and why (for the debug log). */
    record Nothing(String why) implements Incoming {}

    /** Message subtypes that are still a person writing; every other subtype (edits, deletions, joins, bots) is not. */
    Set<String> PERSON_SUBTYPES = Set.of("file_share", "thread_broadcast", "me_message");

    static Incoming of(JsonObject event, String botUserId) {
        if (event == null) {
            return new Nothing("no event");
        }
        String type = event.getValue("type") instanceof String s ? s : ""; // "type": null is no type, not a null
        String user = string(event, "user");
        String channel = string(event, "channel");
        String ts = string(event, "ts");
        if (!type.equals("app_mention") && !type.equals("message")) {
            return new Nothing("event type " + type);
        }
        String subtype = string(event, "subtype");
        if (subtype != null && !PERSON_SUBTYPES.contains(subtype)) {
            return new Nothing("message subtype " + subtype);
        }
        if (event.getValue("bot_id") != null || user == null || user.equals(botUserId)) {
            return new Nothing("a bot's message");
        }
        if (channel == null || ts == null) {
            return new Nothing("no channel or ts");
        }
        String text = event.getValue("text") instanceof String s ? s : "";
        String threadTs = string(event, "thread_ts");
        if (type.equals("app_mention")) {
            return new Turn(channel, user, withoutMention(text, botUserId), ts, threadTs, false);
        }
        if ("im".equals(event.getString("channel_type"))) {
            return new Turn(channel, user, withoutMention(text, botUserId), ts, threadTs, true);
        }
        if (botUserId != null && text.contains("<@" + botUserId + ">")) {
            return new Nothing("a mention: its app_mention event is the turn");
        }
        if (threadTs != null && !threadTs.equals(ts)) {
            return new ThreadReply(channel, user, text, ts, threadTs);
        }
        return new Nothing("a channel message that does not mention the bot");
    }

    /** The text without the bot's own mention, which tells the agent nothing. */
    static String withoutMention(String text, String botUserId) {
        if (botUserId == null) {
            return text.strip();
        }
        return text.replaceAll("<@" + Pattern.quote(botUserId) + "(\\|[^>]*)?>", "").replaceAll("[ \\t]{2,}", " ").strip();
    }

    private static String string(JsonObject o, String key) {
        return o.getValue(key) instanceof String s && !s.isEmpty() ? s : null;
    }
}
