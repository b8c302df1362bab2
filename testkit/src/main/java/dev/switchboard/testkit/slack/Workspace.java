package dev.switchboard.testkit.slack;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fake workspace's state: users, channels' histories and the message clock. Every method is synchronized:
 * the Web API runs on an event loop while tests read and seed from their own thread.
 */
final class Workspace {

    /** 2026-01-01T00:00:00Z: message timestamps count up from here, in steps of 100 µs. */
    private static final long EPOCH_SECONDS = 1_767_225_600L;

    /**
     * @param teamId the person's own team; null for the workspace's (a Slack Connect user from another org has theirs)
     * @param guest null for a full member, else {@code "multi"} ({@code is_restricted}) or {@code "single"}
     *     (also {@code is_ultra_restricted}): a multi- or single-channel guest
     */
    record User(String id, String displayName, String realName, String email, String teamId, String guest) {
        User(String id, String displayName, String realName, String email) {
            this(id, displayName, realName, email, null, null);
        }
    }

    /** A stored message; mutable, guarded by the workspace. */
    private static final class Stored {
        final String channel;
        final String ts;
        final String threadTs;
        final String user;
        final String botId;
        String text;
        String blocks;
        String metadata;
        boolean streaming;
        final List<String> texts = new ArrayList<>();
        /** the latest task_update chunk of each task the stream showed, by task id, in first-shown order */
        final Map<String, JsonObject> tasks = new java.util.LinkedHashMap<>();

        Stored(String channel, String ts, String threadTs, String user, String botId, String text, String blocks,
                String metadata) {
            this.channel = channel;
            this.ts = ts;
            this.threadTs = threadTs;
            this.user = user;
            this.botId = botId;
            this.text = text;
            this.blocks = blocks;
            this.metadata = metadata;
            texts.add(text);
        }

        SlackMessage snapshot() {
            return new SlackMessage(channel, ts, threadTs, user, botId, text, blocks, metadata, texts.size() - 1,
                    new ArrayList<>(texts), streaming, tasks.values().stream().map(JsonObject::encode).toList());
        }
    }

    private final Map<String, User> users = new HashMap<>();
    private final Map<String, List<String>> userGroups = new HashMap<>();
    private final Map<String, List<Stored>> channels = new LinkedHashMap<>();
    private long clock;

    synchronized void addUser(User user) {
        users.put(user.id(), user);
    }

    synchronized User user(String id) {
        return users.get(id);
    }

    synchronized void userGroup(String groupId, List<String> userIds) {
        userGroups.put(groupId, List.copyOf(userIds));
    }

    /** A user group's members; null when there is no such group. */
    synchronized List<String> userGroup(String groupId) {
        return userGroups.get(groupId);
    }

    /** Stores a message with a fresh ts, strictly greater than every earlier one. */
    synchronized SlackMessage post(String channel, String threadTs, String user, String botId, String text, String blocks,
            String metadata) {
        clock += 100;
        String ts = String.format("%d.%06d", EPOCH_SECONDS + clock / 1_000_000, clock % 1_000_000);
        Stored stored = new Stored(channel, ts, threadTs, user, botId, text, blocks, metadata);
        channels.computeIfAbsent(channel, c -> new ArrayList<>()).add(stored);
        return stored.snapshot();
    }

    /**
     * Changes a message's text and blocks ({@code text} without {@code blocks} drops the old blocks, as Slack does);
     * null when there is no such message.
     */
    synchronized SlackMessage update(String channel, String ts, String text, String blocks, String metadata) {
        Stored stored = find(channel, ts);
        if (stored == null) {
            return null;
        }
        stored.text = text;
        stored.blocks = blocks;
        if (metadata != null) {
            stored.metadata = metadata;
        }
        stored.texts.add(text);
        return stored.snapshot();
    }

    /** Starts a native stream: a message of the bot in a thread, streaming until stopped. */
    synchronized SlackMessage startStream(String channel, String threadTs, String user, String botId, String text,
            JsonArray chunks) {
        SlackMessage m = post(channel, threadTs, user, botId, text == null ? "" : text, null, null);
        Stored stored = find(channel, m.ts());
        stored.streaming = true;
        take(stored, chunks);
        return stored.snapshot();
    }

    /** A stream's chunks: text is appended to its text, a task_update replaces its task's last one. */
    private static void take(Stored stored, JsonArray chunks) {
        if (chunks == null) {
            return;
        }
        for (Object o : chunks) {
            JsonObject c = (JsonObject) o;
            switch (c.getString("type")) {
                case "markdown_text" -> {
                    stored.text = (stored.text == null ? "" : stored.text) + c.getString("text");
                    stored.texts.set(stored.texts.size() - 1, stored.text);
                }
                case "task_update" -> stored.tasks.put(c.getString("id"), c.copy());
                default -> { }
            }
        }
    }

    /**
     * Appends to a stream (and with {@code stop}, ends it, setting its blocks and metadata); null when there is no
     * such message, and the message as it stands, unchanged, when it is not streaming.
     */
    synchronized SlackMessage appendStream(String channel, String ts, String text, JsonArray chunks, boolean stop,
            String blocks, String metadata) {
        Stored stored = find(channel, ts);
        if (stored == null || !stored.streaming) {
            return stored == null ? null : stored.snapshot();
        }
        take(stored, chunks);
        if (text != null) {
            stored.text = (stored.text == null ? "" : stored.text) + text;
            stored.texts.set(stored.texts.size() - 1, stored.text);
        }
        if (stop) {
            stored.streaming = false;
            stored.blocks = blocks;
            if (metadata != null) {
                stored.metadata = metadata;
            }
        }
        return stored.snapshot();
    }

    /** Ends a stream as Slack does when it times out: its text stays, nothing more can be appended. */
    synchronized void endStream(String channel, String ts) {
        Stored stored = find(channel, ts);
        if (stored != null) {
            stored.streaming = false;
        }
    }

    synchronized SlackMessage message(String channel, String ts) {
        Stored stored = find(channel, ts);
        return stored == null ? null : stored.snapshot();
    }

    synchronized List<SlackMessage> messages(String channel) {
        return channels.getOrDefault(channel, List.of()).stream().map(Stored::snapshot).toList();
    }

    /** The parent and its replies, oldest first; empty when no message has that ts. */
    synchronized List<SlackMessage> thread(String channel, String threadTs) {
        if (find(channel, threadTs) == null) {
            return List.of();
        }
        return channels.get(channel).stream()
                .filter(m -> m.ts.equals(threadTs) || threadTs.equals(m.threadTs))
                .map(Stored::snapshot)
                .toList();
    }

    private Stored find(String channel, String ts) {
        for (Stored stored : channels.getOrDefault(channel, List.of())) {
            if (stored.ts.equals(ts)) {
                return stored;
            }
        }
        return null;
    }

    /** A message as the Web API shows it. */
    static JsonObject toJson(SlackMessage message, boolean withMetadata) {
        JsonObject json = new JsonObject().put("type", "message").put("ts", message.ts()).put("user", message.user());
        if (message.botId() != null) {
            json.put("bot_id", message.botId());
        }
        json.put("text", message.text() == null ? "" : message.text());
        if (message.threadTs() != null) {
            json.put("thread_ts", message.threadTs());
        }
        if (message.blocks() != null) {
            json.put("blocks", Json.parse(message.blocks()));
        }
        if (withMetadata && message.metadata() != null) {
            json.put("metadata", Json.parse(message.metadata()));
        }
        if (message.edits() > 0) {
            json.put("edited", new JsonObject().put("user", message.user()).put("ts", message.ts()));
        }
        return json;
    }
}
