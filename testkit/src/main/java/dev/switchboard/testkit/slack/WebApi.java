package dev.switchboard.testkit.slack;

import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * The Web API: {@code POST /api/<method>}, form-encoded as the SDK sends it (JSON bodies too), answered with
 * Slack-shaped JSON. Records every call, then applies the scripted faults (429, dropped connection), then the
 * token check, then the method.
 */
final class WebApi {

    private static final String BEARER = "Bearer ";

    private final FakeSlackOptions options;
    private final Workspace workspace;
    private final Supplier<String> socketUrl;
    private final List<SlackCall> calls = new CopyOnWriteArrayList<>();
    private final Map<String, int[]> rateLimits = new HashMap<>();
    private final Map<String, Integer> drops = new HashMap<>();
    /** {@code markdown_text} of the stream methods: at most 12,000 characters */
    private static final int STREAM_TEXT_LIMIT = 12_000;

    WebApi(FakeSlackOptions options, Workspace workspace, Supplier<String> socketUrl) {
        this.options = options;
        this.workspace = workspace;
        this.socketUrl = socketUrl;
    }

    List<SlackCall> calls() {
        return List.copyOf(calls);
    }

    synchronized void rateLimit(String method, int times, int retryAfterSeconds) {
        rateLimits.put(method, new int[] {times, retryAfterSeconds});
    }

    synchronized void dropAfterPerforming(String method, int times) {
        drops.put(method, times);
    }

    /** The Retry-After seconds when this call is to be rate-limited, else -1. */
    private synchronized int takeRateLimit(String method) {
        int[] limit = rateLimits.get(method);
        if (limit == null || limit[0] <= 0) {
            return -1;
        }
        limit[0]--;
        return limit[1];
    }

    private synchronized boolean takeDrop(String method) {
        Integer left = drops.get(method);
        if (left == null || left <= 0) {
            return false;
        }
        drops.put(method, left - 1);
        return true;
    }

    void handle(RoutingContext ctx) {
        String method = ctx.pathParam("method");
        Map<String, String> params = params(ctx);
        String token = token(ctx, params);
        calls.add(new SlackCall(method, params, token, Instant.now()));

        int retryAfter = takeRateLimit(method);
        if (retryAfter >= 0) {
            ctx.response().setStatusCode(429).putHeader("Retry-After", String.valueOf(retryAfter));
            send(ctx, error("ratelimited"));
            return;
        }
        JsonObject answer = answer(method, params, token);
        if (takeDrop(method)) {
            // Performed, but the caller never learns: the connection goes away before any response byte.
            ctx.request().connection().close();
            return;
        }
        send(ctx, answer);
    }

    private JsonObject answer(String method, Map<String, String> params, String token) {
        boolean known = switch (method) {
            case "auth.test", "users.info", "chat.postMessage", "chat.update", "conversations.replies",
                    "apps.connections.open", "chat.postEphemeral", "usergroups.users.list",
                    "assistant.threads.setStatus", "assistant.threads.setSuggestedPrompts",
                    "assistant.threads.setTitle" -> true;
            case "chat.startStream", "chat.appendStream", "chat.stopStream" -> options.nativeStreaming();
            default -> false;
        };
        if (!known) {
            return error("unknown_method");
        }
        String expected = method.equals("apps.connections.open") ? options.appToken() : options.botToken();
        if (token == null) {
            return error("not_authed");
        }
        if (!expected.equals(token)) {
            return error("invalid_auth");
        }
        return switch (method) {
            case "auth.test" -> authTest();
            case "users.info" -> usersInfo(params);
            case "chat.postMessage" -> postMessage(params);
            case "chat.update" -> update(params);
            case "conversations.replies" -> replies(params);
            case "chat.postEphemeral" -> postEphemeral(params);
            case "usergroups.users.list" -> userGroupUsers(params);
            case "chat.startStream" -> startStream(params);
            case "chat.appendStream" -> appendStream(params, false);
            case "chat.stopStream" -> appendStream(params, true);
            case "assistant.threads.setStatus", "assistant.threads.setSuggestedPrompts", "assistant.threads.setTitle" ->
                    isBlank(params.get("channel_id")) || isBlank(params.get("thread_ts")) ? error("invalid_arguments") : ok();
            default -> ok().put("url", socketUrl.get());
        };
    }

    private JsonObject authTest() {
        return ok().put("url", "https://fake.slack.com/").put("team", "Fake Workspace").put("user", "switchboard")
                .put("team_id", options.teamId()).put("user_id", options.botUserId()).put("bot_id", options.botId())
                .put("is_enterprise_install", false);
    }

    private JsonObject usersInfo(Map<String, String> params) {
        Workspace.User user = workspace.user(params.get("user"));
        if (user == null) {
            return error("user_not_found");
        }
        JsonObject profile = new JsonObject()
                .put("real_name", user.realName())
                .put("display_name", user.displayName());
        if (options.emailScope() && user.email() != null) {
            profile.put("email", user.email());
        }
        return ok().put("user", new JsonObject()
                .put("id", user.id())
                .put("team_id", user.teamId() == null ? options.teamId() : user.teamId())
                .put("name", user.displayName())
                .put("real_name", user.realName())
                .put("is_bot", false)
                .put("is_restricted", user.guest() != null)
                .put("is_ultra_restricted", "single".equals(user.guest()))
                .put("profile", profile));
    }

    /**
     * Shown only to {@code user}, so the workspace keeps nothing: a test reads it from the recorded call
     * ({@link FakeSlack#calls(String)}).
     */
    private JsonObject postEphemeral(Map<String, String> params) {
        if (isBlank(params.get("channel"))) {
            return error("channel_not_found");
        }
        if (isBlank(params.get("user")) || workspace.user(params.get("user")) == null) {
            return error("user_not_in_channel");
        }
        if (isBlank(params.get("text")) && isBlank(params.get("blocks"))) {
            return error("no_text");
        }
        return ok().put("message_ts", String.format("%d.%06d", Instant.now().getEpochSecond(), calls.size()));
    }

    private JsonObject userGroupUsers(Map<String, String> params) {
        List<String> members = workspace.userGroup(params.get("usergroup"));
        if (members == null) {
            return error("no_such_subteam");
        }
        return ok().put("users", new JsonArray(members));
    }

    private JsonObject postMessage(Map<String, String> params) {
        String channel = params.get("channel");
        if (channel == null || channel.isBlank()) {
            return error("channel_not_found");
        }
        String text = params.get("text");
        String blocks = params.get("blocks");
        if (isBlank(text) && isBlank(blocks) && isBlank(params.get("markdown_text"))) {
            return error("no_text");
        }
        if (isBlank(text)) {
            text = params.get("markdown_text");
        }
        String invalid = BlockKit.problem(blocks);
        if (invalid != null) {
            return error("invalid_blocks").put("errors", new JsonArray().add(invalid));
        }
        String threadTs = params.get("thread_ts");
        SlackMessage message = workspace.post(channel, isBlank(threadTs) ? null : threadTs, options.botUserId(),
                options.botId(), text, blocks, params.get("metadata"));
        return ok().put("channel", channel).put("ts", message.ts()).put("message", Workspace.toJson(message, true));
    }

    /** A stream is a reply in a thread, as Slack requires; its first text is optional. */
    private JsonObject startStream(Map<String, String> params) {
        String channel = params.get("channel");
        if (isBlank(channel)) {
            return error("channel_not_found");
        }
        if (isBlank(params.get("thread_ts"))) {
            return error("invalid_arguments");
        }
        // outside a direct message Slack must be told whom the stream is for
        if (!channel.startsWith("D") && (isBlank(params.get("recipient_user_id")) || isBlank(params.get("recipient_team_id")))) {
            return error("invalid_arguments").put("errors", new JsonArray()
                    .add("recipient_user_id and recipient_team_id are required when streaming to channels"));
        }
        String text = params.get("markdown_text");
        if (text != null && text.length() > STREAM_TEXT_LIMIT) {
            return error("msg_too_long");
        }
        JsonArray chunks;
        try {
            chunks = StreamChunks.parse(params.get("chunks"));
        } catch (IllegalArgumentException e) {
            return error("invalid_chunks").put("errors", new JsonArray().add(e.getMessage()));
        }
        SlackMessage message = workspace.startStream(channel, params.get("thread_ts"), options.botUserId(),
                options.botId(), text, chunks);
        return ok().put("channel", channel).put("ts", message.ts());
    }

    private JsonObject appendStream(Map<String, String> params, boolean stop) {
        String channel = params.get("channel");
        String text = params.get("markdown_text");
        JsonArray chunks;
        try {
            chunks = StreamChunks.parse(params.get("chunks"));
        } catch (IllegalArgumentException e) {
            return error("invalid_chunks").put("errors", new JsonArray().add(e.getMessage()));
        }
        if (!stop && isBlank(text) && chunks == null) {
            return error("no_text");
        }
        if (text != null && text.length() > STREAM_TEXT_LIMIT) {
            return error("msg_too_long");
        }
        String blocks = params.get("blocks");
        String invalid = BlockKit.problem(blocks);
        if (invalid != null) {
            return error("invalid_blocks").put("errors", new JsonArray().add(invalid));
        }
        SlackMessage before = workspace.message(channel, params.get("ts"));
        if (before == null) {
            return error("message_not_found");
        }
        if (!before.streaming()) {
            return error("message_not_in_streaming_state");
        }
        SlackMessage message = workspace.appendStream(channel, params.get("ts"), text, chunks, stop, blocks, params.get("metadata"));
        return ok().put("channel", channel).put("ts", message.ts());
    }

    private JsonObject update(Map<String, String> params) {
        String channel = params.get("channel");
        String text = params.get("text");
        String blocks = params.get("blocks");
        if (isBlank(text) && isBlank(blocks) && isBlank(params.get("markdown_text"))) {
            return error("no_text");
        }
        if (isBlank(text)) {
            text = params.get("markdown_text");
        }
        String invalid = BlockKit.problem(blocks);
        if (invalid != null) {
            return error("invalid_blocks").put("errors", new JsonArray().add(invalid));
        }
        SlackMessage message = workspace.update(channel, params.get("ts"), text, blocks, params.get("metadata"));
        if (message == null) {
            return error("message_not_found");
        }
        return ok().put("channel", channel).put("ts", message.ts()).put("text", message.text())
                .put("message", Workspace.toJson(message, true));
    }

    private JsonObject replies(Map<String, String> params) {
        List<SlackMessage> thread = workspace.thread(params.get("channel"), params.get("ts"));
        if (thread.isEmpty()) {
            return error("thread_not_found");
        }
        boolean withMetadata = isTrue(params.get("include_all_metadata"));
        int limit = parseInt(params.get("limit"), 1000);
        int from = parseInt(params.get("cursor"), 0);
        if (limit <= 0) {
            limit = 1000;
        }
        int to = Math.min(thread.size(), from + limit);
        JsonArray messages = new JsonArray();
        for (SlackMessage message : thread.subList(Math.min(from, thread.size()), to)) {
            messages.add(Workspace.toJson(message, withMetadata));
        }
        String next = to < thread.size() ? String.valueOf(to) : "";
        return ok().put("messages", messages).put("has_more", !next.isEmpty())
                .put("response_metadata", new JsonObject().put("next_cursor", next));
    }

    private static Map<String, String> params(RoutingContext ctx) {
        Map<String, String> params = new LinkedHashMap<>();
        putAll(params, ctx.queryParams());
        String contentType = ctx.request().getHeader("Content-Type");
        if (contentType != null && contentType.toLowerCase().startsWith("application/json") && ctx.body().length() > 0) {
            JsonObject body = ctx.body().asJsonObject();
            body.forEach(e -> params.put(e.getKey(), e.getValue() == null ? null
                    : e.getValue() instanceof String s ? s : io.vertx.core.json.Json.encode(e.getValue())));
        } else {
            putAll(params, ctx.request().formAttributes());
        }
        params.values().removeIf(v -> v == null);
        return params;
    }

    private static void putAll(Map<String, String> params, MultiMap values) {
        values.forEach(e -> params.put(e.getKey(), e.getValue()));
    }

    private static String token(RoutingContext ctx, Map<String, String> params) {
        String auth = ctx.request().getHeader("Authorization");
        if (auth != null && auth.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return auth.substring(BEARER.length()).trim();
        }
        return params.get("token");
    }

    private static void send(RoutingContext ctx, JsonObject body) {
        ctx.response().putHeader("Content-Type", "application/json; charset=utf-8").end(body.encode());
    }

    private static JsonObject ok() {
        return new JsonObject().put("ok", true);
    }

    static JsonObject error(String error) {
        return new JsonObject().put("ok", false).put("error", error);
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    private static boolean isTrue(String s) {
        return "1".equals(s) || "true".equalsIgnoreCase(s);
    }

    private static int parseInt(String s, int fallback) {
        if (isBlank(s)) {
            return fallback;
        }
        try {
            return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
