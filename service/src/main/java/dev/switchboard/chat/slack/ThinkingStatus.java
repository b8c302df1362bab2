package dev.switchboard.chat.slack;

import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread's title (from its first turn, {@code assistant.threads.setTitle}) and "is thinking…" under a
 * direct-message thread (the agent view's assistant threads are direct messages) while its turn runs, cleared when
 * the turn ends or waits for an answer: {@code assistant.threads.setStatus}. While a kagent agent calls a tool (a step
 * card of the call, until its result) the status names it instead: "is using get_pods…". A status is set only when it
 * changes. Channel threads show nothing (Slack takes a status only in assistant threads). Worker thread only.
 */
final class ThinkingStatus {

    private static final Logger LOG = LoggerFactory.getLogger(ThinkingStatus.class);
    static final String THINKING = "is thinking…";
    private static final Set<String> RUNNING = Set.of("sending", "running", "retrying");
    private static final int MAX_TRACKED = 10_000;
    private static final int MAX_TOOL_NAME = 60;

    private final SlackApi api;
    /** turns whose thread shows a status now, and which */
    private final Map<String, String> shown = new LinkedHashMap<>();
    /** the tools each such turn is calling now (call id → name): with calls in parallel, the status names the last */
    private final Map<String, Map<String, String>> calling = new LinkedHashMap<>();
    /** threads given their title (from their first turn), so that the history lists them by it */
    private final Set<String> titled = new LinkedHashSet<>();

    ThinkingStatus(SlackApi api) {
        this.api = api;
    }

    static boolean applies(ChatThread thread) {
        return thread.channel() != null && thread.channel().startsWith("D");
    }

    private void title(ChatThread thread, String threadTs) {
        String title = thread.title() == null ? "" : thread.title().strip();
        if (title.isEmpty()) {
            return;
        }
        try {
            api.setTitle(thread.channel(), threadTs, title.length() > 100 ? title.substring(0, 99) + "…" : title);
        } catch (SlackApi.Failure f) {
            LOG.debug("slack: no title for thread {} of {}: {}", threadTs, thread.channel(), f.getMessage());
        }
    }

    /** A turn's state changed ({@code userPost} is its own post). */
    void turn(ChatThread thread, Post userPost) {
        String turn = userPost.turnMessageId();
        String threadTs = SlackThreads.threadTs(thread.threadId());
        boolean running = RUNNING.contains(userPost.state());
        if (running == shown.containsKey(turn)) {
            return;
        }
        if (running && titled.add(thread.threadId())) {
            if (titled.size() > MAX_TRACKED) {
                titled.remove(titled.iterator().next());
            }
            title(thread, threadTs);
        }
        if (running) {
            shown.put(turn, THINKING);
            if (shown.size() > MAX_TRACKED) {
                shown.remove(shown.keySet().iterator().next());
            }
        } else {
            shown.remove(turn);
            calling.remove(turn);
        }
        set(thread, threadTs, running ? THINKING : "");
    }

    /** A step card of a turn whose thread shows a status: a tool call names the tool; its result, thinking again. */
    void step(ChatThread thread, Post step) {
        String turn = step.turnMessageId();
        String now = turn == null ? null : shown.get(turn);
        if (now == null) {
            return;
        }
        JsonObject d;
        try {
            d = step.data() == null ? new JsonObject() : new JsonObject(step.data());
        } catch (RuntimeException e) {
            return;
        }
        String name = d.getValue("name") instanceof String s ? s.strip() : "";
        String id = d.getValue("id") instanceof String s ? s : step.id();
        Map<String, String> open = calling.computeIfAbsent(turn, t -> new LinkedHashMap<>());
        if (calling.size() > MAX_TRACKED) {
            calling.remove(calling.keySet().iterator().next());
        }
        if ("call".equals(d.getValue("kind")) && !name.isEmpty()) {
            open.put(id, name);
        } else {
            open.remove(id);
        }
        String last = open.isEmpty() ? null : open.values().stream().reduce((a, b) -> b).orElseThrow();
        String status = last == null ? THINKING
                : "is using " + (last.length() > MAX_TOOL_NAME ? last.substring(0, MAX_TOOL_NAME - 1) + "…" : last) + "…";
        if (!status.equals(now)) {
            shown.put(turn, status);
            set(thread, SlackThreads.threadTs(thread.threadId()), status);
        }
    }

    private void set(ChatThread thread, String threadTs, String status) {
        try {
            api.setStatus(thread.channel(), threadTs, status);
        } catch (SlackApi.Failure f) {
            LOG.debug("slack: no status in thread {} of {}: {}", threadTs, thread.channel(), f.getMessage());
        }
    }
}
