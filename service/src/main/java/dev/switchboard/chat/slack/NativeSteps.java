package dev.switchboard.chat.slack;

import dev.switchboard.bridge.store.Post;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A kagent turn's step cards (tool calls and their results) as Slack's agents show theirs: one natively streamed
 * message of task chunks, a {@code task_update} per tool call — in progress at its call, complete or error at its
 * result — started with the turn's first card, appended to as cards arrive (only the tasks that changed) and stopped
 * when the turn is over or waits for an answer. As with {@link NativeStream}, the store keeps what the open stream
 * shows (behind {@link NativeStream#OPEN}: the tasks as JSON), so after a restart the same message is appended to
 * and stopped, never a second one started; a stream Slack ended meanwhile is edited to the cards' ordinary rendering
 * ({@link NativeStream.Outcome#EDIT}). Worker thread only (see {@link SlackPoster}).
 */
final class NativeSteps {

    /** Slack's limit on a task's {@code details} and {@code output}; titles are kept as short. */
    static final int TASK_TEXT = 256;
    /** As many tasks as the edited rendering shows lines: the latest ones. */
    static final int MAX_TASKS = 49;
    private static final int MAX_ID = 64;

    private final SlackApi api;
    private final SlackStore store;

    NativeSteps(SlackApi api, SlackStore store) {
        this.api = api;
        this.store = store;
    }

    /** The task chunks of a turn's step cards: one per tool call (by its id), at its latest state, in call order. */
    static JsonArray tasks(List<Post> turn) {
        Map<String, JsonObject> byId = new LinkedHashMap<>();
        int n = 0;
        for (Post p : turn) {
            if (!Post.STEP.equals(p.kind())) {
                continue;
            }
            n++;
            JsonObject d = data(p.data());
            String id = d.getValue("id") instanceof String s && !s.isBlank() && s.length() <= MAX_ID ? s : "step-" + n;
            boolean result = "result".equals(d.getString("kind"));
            boolean error = Boolean.TRUE.equals(d.getValue("error"));
            String name = d.getValue("name") instanceof String s && !s.isBlank() ? s : p.text() == null ? "tool" : p.text();
            String detail = d.getValue("detail") instanceof String s ? s.strip() : "";
            JsonObject task = byId.computeIfAbsent(id, k -> new JsonObject().put("type", "task_update").put("id", k)
                    .put("title", clip(name)));
            task.put("status", !result ? "in_progress" : error ? "error" : "complete");
            if (!detail.isEmpty()) {
                task.put(result ? "output" : "details", clip(detail));
            }
        }
        List<JsonObject> all = List.copyOf(byId.values());
        return new JsonArray(new java.util.ArrayList<>(all.subList(Math.max(0, all.size() - MAX_TASKS), all.size())));
    }

    /**
     * Shows {@code tasks} in the steps message {@code key} of a thread.
     *
     * @param sp where the message is so far (null: nowhere)
     * @param finished whether the turn is over (or waits for an answer): the stream is then stopped
     * @param recipient whom a new stream is for (null only in a direct message)
     */
    NativeStream.Outcome deliver(String channel, String threadTs, String key, JsonArray tasks, boolean finished,
            SlackStore.ShownPart sp, NativeStream.Recipient recipient) throws SlackApi.Failure {
        if (NativeStream.streamed(sp) && !NativeStream.open(sp)) {
            return NativeStream.Outcome.DONE; // stopped: a card after its turn ended changes nothing
        }
        SlackStore.ShownPart adopted = NativeStream.starting(sp) ? NativeStream.adopt(api, store, sp, "", true) : null;
        if (adopted != null) {
            sp = adopted; // every task is sent again: an update of a task replaces it
        } else if (!NativeStream.open(sp)) {
            if (tasks.isEmpty()) {
                return NativeStream.Outcome.DONE;
            }
            if (sp == null) {
                store.posting(key, 0, channel, threadTs);
            }
            NativeStream.requireRecipient(channel, recipient);
            store.shown(key, 0, null, NativeStream.STARTING);
            String ts;
            try {
                ts = api.startStreamChunks(channel, threadTs, tasks.encode(), recipient);
            } catch (SlackApi.Failure f) {
                if (f.transientFailure()) {
                    throw f;
                }
                return NativeStream.Outcome.REFUSED;
            }
            store.shown(key, 0, ts, NativeStream.OPEN + tasks.encode());
            return finished ? stop(channel, ts, key, tasks) : NativeStream.Outcome.OPEN;
        }
        String ts = sp.ts();
        JsonArray changed = changed(shownTasks(sp.shownText().substring(NativeStream.OPEN.length())), tasks);
        try {
            if (!changed.isEmpty()) {
                api.appendStreamChunks(channel, ts, changed.encode());
                store.shown(key, 0, ts, NativeStream.OPEN + tasks.encode());
            }
            return finished ? stop(channel, ts, key, tasks) : NativeStream.Outcome.OPEN;
        } catch (SlackApi.Failure f) {
            if (!NativeStream.NOT_STREAMING.contains(f.error)) {
                throw f;
            }
            return NativeStream.Outcome.EDIT;
        }
    }

    private NativeStream.Outcome stop(String channel, String ts, String key, JsonArray tasks) throws SlackApi.Failure {
        api.stopStream(channel, ts, null, null, key, 0);
        store.shown(key, 0, ts, NativeStream.STOPPED + tasks.encode());
        return NativeStream.Outcome.DONE;
    }

    /** The tasks of {@code now} that {@code shown} does not show as they are now. */
    static JsonArray changed(JsonArray shown, JsonArray now) {
        Map<String, JsonObject> before = new LinkedHashMap<>();
        for (Object o : shown) {
            if (o instanceof JsonObject t) {
                before.put(t.getString("id"), t);
            }
        }
        JsonArray out = new JsonArray();
        for (Object o : now) {
            JsonObject t = (JsonObject) o;
            if (!t.equals(before.get(t.getString("id")))) {
                out.add(t);
            }
        }
        return out;
    }

    private static String clip(String s) {
        return s.length() <= TASK_TEXT ? s : s.substring(0, TASK_TEXT - 1) + "…";
    }

    private static JsonObject data(String json) {
        try {
            return json == null ? new JsonObject() : new JsonObject(json);
        } catch (RuntimeException e) {
            return new JsonObject();
        }
    }

    private static JsonArray shownTasks(String json) {
        try {
            return new JsonArray(json);
        } catch (RuntimeException e) {
            return new JsonArray(); // unreadable: every task is sent again, which shows the same
        }
    }
}
