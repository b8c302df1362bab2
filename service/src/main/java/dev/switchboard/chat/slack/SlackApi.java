package dev.switchboard.chat.slack;

import com.slack.api.Slack;
import com.slack.api.SlackConfig;
import com.slack.api.methods.MethodsClient;
import com.slack.api.methods.SlackApiException;
import com.slack.api.methods.SlackApiTextResponse;
import com.slack.api.model.Message;
import com.slack.api.socket_mode.SocketModeClient;
import com.slack.api.util.http.SlackHttpClient;
import java.io.IOException;
import okhttp3.OkHttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Slack Web API methods the bridge calls, on the official SDK's client, with one failure type. Every method
 * blocks (the SDK's client is synchronous): callers run it on the Slack worker, never on a bridge lane or the event
 * loop. The bot token is held by the SDK's client and appears in no message this class makes.
 */
final class SlackApi {

    /** The metadata event type marking a message as one of ours; its payload names the post and the part. */
    static final String POST_EVENT_TYPE = "switchboard_post";
    private static final int REPLIES_PAGES = 20;

    private final Slack slack;
    private final MethodsClient methods;
    /** for the methods whose fields the SDK's typed requests lack (a stream's {@code chunks}); never logged */
    private final String botToken;

    SlackApi(String apiUrl, String botToken) {
        this.botToken = botToken;
        SlackConfig config = new SlackConfig(); // SlackConfig.DEFAULT is immutable
        config.setMethodsEndpointUrlPrefix(apiUrl);
        config.setHttpClientCallTimeoutMillis(15_000);
        config.setHttpClientReadTimeoutMillis(10_000);
        config.setPrettyResponseLoggingEnabled(false);
        config.setFailOnUnknownProperties(false);
        // the SDK would otherwise call auth.test on its own and log the first characters of the token
        config.setTokenExistenceVerificationEnabled(false);
        // and before its first call with a token, an auth.test of its own for its metrics
        config.setStatsEnabled(false);
        // okhttp resends a request whose pooled connection died before any answer: for chat.postMessage that is a
        // second message. A failed post is looked up in its thread instead (SlackPoster), so no transport retries.
        OkHttpClient http = SlackHttpClient.buildOkHttpClient(config).newBuilder().retryOnConnectionFailure(false).build();
        SlackHttpClient client = new SlackHttpClient(http);
        client.setConfig(config);
        this.slack = Slack.getInstance(config, client);
        this.methods = slack.methods(botToken);
    }

    /**
     * A Socket Mode client on the same API URL (it opens its connection with {@code apps.connections.open});
     * blocks while it asks for the connection's URL.
     */
    SocketModeClient socketMode(String appToken) throws Failure {
        try {
            return slack.socketMode(appToken, SocketModeClient.Backend.JavaWebSocket);
        } catch (IOException | RuntimeException e) {
            Throwable cause = e.getCause() instanceof SlackApiException api ? api : e;
            String error = cause instanceof SlackApiException api && api.getError() != null ? api.getError().getError() : null;
            throw new Failure("apps.connections.open", error, null, error != null ? error
                    : cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage()));
        }
    }

    /** Who the bot is: its user id (mentions look like {@code <@U…>}) and its team. */
    record Identity(String botUserId, String teamId) {}

    /** Who the bot is, as the last {@code auth.test} said; null before one answered. */
    private volatile Identity identity;

    Identity authTest() throws Failure {
        var r = call("auth.test", () -> methods.authTest(q -> q));
        identity = new Identity(r.getUserId(), r.getTeamId());
        return identity;
    }

    /**
     * A person as Slack knows them; email only with {@code users:read.email}.
     *
     * @param teamId the person's own team (a Slack Connect user from another organisation has theirs); null if unsaid
     * @param guest a multi- or single-channel guest ({@code is_restricted}, {@code is_ultra_restricted})
     */
    record Person(String id, String name, String email, String teamId, boolean guest) {}

    Person userInfo(String userId) throws Failure {
        var r = call("users.info", () -> methods.usersInfo(q -> q.user(userId)));
        var u = r.getUser();
        var p = u.getProfile();
        String name = firstPresent(p == null ? null : p.getDisplayName(), p == null ? null : p.getRealName(),
                u.getRealName(), u.getName());
        return new Person(userId, name, p == null || blank(p.getEmail()) ? null : p.getEmail(),
                blank(u.getTeamId()) ? null : u.getTeamId(), u.isRestricted() || u.isUltraRestricted());
    }

    /** The members of a user group ({@code S…}); needs {@code usergroups:read}. */
    List<String> userGroupMembers(String groupId) throws Failure {
        var r = call("usergroups.users.list", () -> methods.usergroupsUsersList(q -> q.usergroup(groupId)));
        return r.getUsers() == null ? List.of() : List.copyOf(r.getUsers());
    }

    /** A message in a thread that only {@code user} sees, and only until they reload; nothing is stored. */
    void postEphemeral(String channel, String threadTs, String user, String text) throws Failure {
        call("chat.postEphemeral", () -> methods.chatPostEphemeral(q -> q.channel(channel).threadTs(threadTs).user(user)
                .text(text)));
    }

    /** Posts a message in a thread, marked with the post it shows; returns its ts. */
    String post(String channel, String threadTs, String text, String postId, int part) throws Failure {
        return post(channel, threadTs, text, null, postId, part);
    }

    /**
     * Posts a message in a thread, marked with the post it shows; returns its ts.
     *
     * @param blocks the message's Block Kit blocks as a JSON array, or null for a text-only message ({@code text} is
     *     then what shows; with blocks it is the fallback and the notification)
     */
    String post(String channel, String threadTs, String text, String blocks, String postId, int part) throws Failure {
        Message.Metadata metadata = new Message.Metadata();
        metadata.setEventType(POST_EVENT_TYPE);
        metadata.setEventPayload(Map.of("post_id", postId, "part", part));
        return call("chat.postMessage", () -> methods.chatPostMessage(q -> q.channel(channel).threadTs(threadTs)
                .text(text).blocksAsString(blocks).metadata(metadata).unfurlLinks(false).unfurlMedia(false))).getTs();
    }

    void update(String channel, String ts, String text) throws Failure {
        update(channel, ts, text, null);
    }

    /** Edits a message: its text, and its blocks unless {@code blocks} is null (an empty array removes them). */
    void update(String channel, String ts, String text, String blocks) throws Failure {
        call("chat.update", () -> methods.chatUpdate(q -> q.channel(channel).ts(ts).text(text).blocksAsString(blocks)));
    }

    // ---- native streaming (chat.startStream / appendStream / stopStream) ----

    /** Starts a streamed message in a thread with its first text (markdown); returns its ts. */
    String startStream(String channel, String threadTs, String markdown, NativeStream.Recipient to) throws Failure {
        return call("chat.startStream", () -> methods.chatStartStream(q -> q.channel(channel).threadTs(threadTs)
                .markdownText(markdown).recipientUserId(to == null ? null : to.userId())
                .recipientTeamId(to == null ? null : to.teamId()))).getTs();
    }

    /** Appends text (markdown, at most 12,000 characters) to a streamed message. */
    void appendStream(String channel, String ts, String markdown) throws Failure {
        call("chat.appendStream", () -> methods.chatAppendStream(q -> q.channel(channel).ts(ts).markdownText(markdown)));
    }

    /**
     * Starts a streamed message with {@code chunks} (a JSON array of stream chunks: task updates) and no text. The
     * SDK's typed request has no {@code chunks}, so the form is written here; the call is the SDK's all the same.
     */
    String startStreamChunks(String channel, String threadTs, String chunks, NativeStream.Recipient to) throws Failure {
        return call("chat.startStream", () -> methods.postFormWithTokenAndParseResponse(form -> {
            form.add("channel", channel).add("thread_ts", threadTs).add("chunks", chunks);
            if (to != null) {
                form.add("recipient_user_id", to.userId()).add("recipient_team_id", to.teamId());
            }
            return form;
        }, "chat.startStream", botToken, com.slack.api.methods.response.chat.ChatStartStreamResponse.class)).getTs();
    }

    /** Appends {@code chunks} (a JSON array of stream chunks) to a streamed message. */
    void appendStreamChunks(String channel, String ts, String chunks) throws Failure {
        call("chat.appendStream", () -> methods.postFormWithTokenAndParseResponse(form -> form
                .add("channel", channel).add("ts", ts).add("chunks", chunks), "chat.appendStream", botToken,
                com.slack.api.methods.response.chat.ChatAppendStreamResponse.class));
    }

    /**
     * Ends a streamed message with its last text (null for none) and blocks (a JSON array, or null), marked with the
     * post it shows so that a later look-up ({@link #findPosted}) finds it.
     */
    void stopStream(String channel, String ts, String markdown, String blocks, String postId, int part) throws Failure {
        Message.Metadata metadata = new Message.Metadata();
        metadata.setEventType(POST_EVENT_TYPE);
        metadata.setEventPayload(Map.of("post_id", postId, "part", part));
        call("chat.stopStream", () -> methods.chatStopStream(q -> q.channel(channel).ts(ts)
                .markdownText(markdown == null || markdown.isEmpty() ? null : markdown).blocksAsString(blocks)
                .metadata(metadata)));
    }

    // ---- the agent view: assistant threads ----

    /** The status under an assistant thread ("is thinking…"); an empty status clears it. */
    void setStatus(String channel, String threadTs, String status) throws Failure {
        call("assistant.threads.setStatus", () -> methods.assistantThreadsSetStatus(q -> q.channelId(channel)
                .threadTs(threadTs).status(status)));
    }

    /** The title of an assistant thread, as its history lists it. */
    void setTitle(String channel, String threadTs, String title) throws Failure {
        call("assistant.threads.setTitle", () -> methods.assistantThreadsSetTitle(q -> q.channelId(channel)
                .threadTs(threadTs).title(title)));
    }

    /** The prompts an assistant thread offers, as (title, message) pairs. */
    void setSuggestedPrompts(String channel, String threadTs, String title, List<String[]> prompts) throws Failure {
        List<com.slack.api.model.assistant.SuggestedPrompt> list = prompts.stream()
                .map(p -> new com.slack.api.model.assistant.SuggestedPrompt(p[0], p[1])).toList();
        call("assistant.threads.setSuggestedPrompts", () -> methods.assistantThreadsSetSuggestedPrompts(q -> q
                .channelId(channel).threadTs(threadTs).title(title).prompts(list)));
    }

    /** The ts of a message already posted for this post's part, found in its thread by the metadata it carries. */
    Optional<String> findPosted(String channel, String threadTs, String postId, int part) throws Failure {
        return findReply(channel, threadTs, m -> {
            Message.Metadata md = m.getMetadata();
            return md != null && POST_EVENT_TYPE.equals(md.getEventType()) && md.getEventPayload() != null
                    && postId.equals(String.valueOf(md.getEventPayload().get("post_id")))
                    && part == asInt(md.getEventPayload().get("part"));
        }).map(Message::getTs);
    }

    /** A stream of ours whose start was cut off before its ts was known: its ts, and its text so far. */
    record Unrecorded(String ts, String text) {}

    /**
     * A stream a crash (or a lost answer) left unrecorded: chat.startStream carries no metadata, so it is found as our
     * bot's message in the thread that has none (a stopped stream and every posted message have it), that the store
     * knows for no part ({@code known}), and whose text so far begins {@code text} (an empty text for a stream of task
     * chunks); the newest such. Empty when there is none. Before {@code auth.test} has said who the bot is, nothing
     * can be told apart: a passing failure, so the part is tried again shortly (after a restart the posts may be
     * shown before the app has identified itself).
     */
    Optional<Unrecorded> findUnrecordedStream(String channel, String threadTs, java.util.Set<String> known, String text)
            throws Failure {
        Identity me = identity;
        if (me == null) {
            throw new Failure("conversations.replies", null, null, "the bot's identity is not known yet (auth.test)");
        }
        Message[] newest = {null};
        findReply(channel, threadTs, m -> {
            if (me.botUserId().equals(m.getUser()) && m.getMetadata() == null && !known.contains(m.getTs())
                    && !threadTs.equals(m.getTs())
                    && (text.isEmpty() ? blank(m.getText()) : !blank(m.getText()) && text.startsWith(m.getText()))) {
                newest[0] = m; // replies come oldest first: the last match is the newest
            }
            return false;
        });
        return Optional.ofNullable(newest[0]).map(m -> new Unrecorded(m.getTs(), m.getText() == null ? "" : m.getText()));
    }

    /** The first message of the thread that {@code which} accepts (read a page of 200 at a time, a few pages at most). */
    private Optional<Message> findReply(String channel, String threadTs, java.util.function.Predicate<Message> which)
            throws Failure {
        String cursor = null;
        for (int page = 0; page < REPLIES_PAGES; page++) {
            String c = cursor;
            var r = call("conversations.replies", () -> methods.conversationsReplies(q -> q.channel(channel).ts(threadTs)
                    .includeAllMetadata(true).limit(200).cursor(c)));
            for (Message m : r.getMessages() == null ? List.<Message>of() : r.getMessages()) {
                if (which.test(m)) {
                    return Optional.of(m);
                }
            }
            cursor = r.getResponseMetadata() == null ? null : r.getResponseMetadata().getNextCursor();
            if (blank(cursor)) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    // ---- plumbing ----

    /** A Web API call that did not succeed. */
    static final class Failure extends Exception {
        /** the Slack error code ({@code ratelimited}, {@code message_not_found}, …), or null for a transport failure */
        final String error;
        /** for a 429: how long Slack asks us to wait */
        final Duration retryAfter;

        Failure(String method, String error, Duration retryAfter, String detail) {
            super(method + ": " + detail, null, false, false);
            this.error = error;
            this.retryAfter = retryAfter;
        }

        boolean rateLimited() {
            return retryAfter != null;
        }

        /** A failure a later try may not have: the network, Slack's side, or a rate limit. */
        boolean transientFailure() {
            return error == null || rateLimited() || "internal_error".equals(error) || "fatal_error".equals(error)
                    || "service_unavailable".equals(error) || "request_timeout".equals(error);
        }
    }

    private interface Call<T> {
        T run() throws IOException, SlackApiException;
    }

    private static <T extends SlackApiTextResponse> T call(String method, Call<T> call) throws Failure {
        T r;
        try {
            r = call.run();
        } catch (SlackApiException e) {
            int status = e.getResponse() == null ? 0 : e.getResponse().code();
            if (status == 429) {
                String header = e.getResponse().header("Retry-After");
                return throwRateLimited(method, header);
            }
            String error = e.getError() == null ? "http_" + status : e.getError().getError();
            throw new Failure(method, error, null, "HTTP " + status + " " + error);
        } catch (IOException e) {
            throw new Failure(method, null, null, e.getClass().getSimpleName() + ": " + e.getMessage());
        } catch (RuntimeException e) {
            throw new Failure(method, null, null, e.getClass().getSimpleName());
        }
        if (r == null) {
            throw new Failure(method, null, null, "no answer");
        }
        if (!r.isOk()) {
            if ("ratelimited".equals(r.getError())) {
                return throwRateLimited(method, null);
            }
            throw new Failure(method, r.getError(), null, r.getError());
        }
        return r;
    }

    private static <T> T throwRateLimited(String method, String header) throws Failure {
        long seconds = 1;
        try {
            seconds = header == null ? 1 : Math.max(1, Math.min(3600, Long.parseLong(header.trim())));
        } catch (NumberFormatException ignored) {
            // an unreadable Retry-After: wait a second
        }
        throw new Failure(method, "ratelimited", Duration.ofSeconds(seconds), "rate limited for " + seconds + " s");
    }

    private static int asInt(Object o) {
        if (o instanceof Number n) {
            return n.intValue();
        }
        try {
            return o == null ? -1 : (int) Double.parseDouble(o.toString());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String firstPresent(String... values) {
        for (String v : values) {
            if (!blank(v)) {
                return v;
            }
        }
        return null;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
