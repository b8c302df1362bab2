package dev.switchboard.chat.slack;

import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;
import java.util.LinkedHashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread's title (from its first turn, {@code assistant.threads.setTitle}) and "is thinking…" under a
 * direct-message thread (the agent view's assistant threads are direct messages) while its
 * turn runs, cleared when the turn ends or waits for an answer: {@code assistant.threads.setStatus}, once at each
 * end. Channel threads show nothing (Slack takes a status only in assistant threads). Worker thread only.
 */
final class ThinkingStatus {

    private static final Logger LOG = LoggerFactory.getLogger(ThinkingStatus.class);
    static final String THINKING = "is thinking…";
    private static final Set<String> RUNNING = Set.of("sending", "running", "retrying");
    private static final int MAX_TRACKED = 10_000;

    private final SlackApi api;
    /** turns whose thread shows the status now */
    private final Set<String> shown = new LinkedHashSet<>();
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
        if (running == shown.contains(turn)) {
            return;
        }
        if (running && titled.add(thread.threadId())) {
            if (titled.size() > MAX_TRACKED) {
                titled.remove(titled.iterator().next());
            }
            title(thread, threadTs);
        }
        if (running) {
            shown.add(turn);
            if (shown.size() > MAX_TRACKED) {
                shown.remove(shown.iterator().next());
            }
        } else {
            shown.remove(turn);
        }
        try {
            api.setStatus(thread.channel(), threadTs, running ? THINKING : "");
        } catch (SlackApi.Failure f) {
            LOG.debug("slack: no status in thread {} of {}: {}", threadTs, thread.channel(), f.getMessage());
        }
    }
}
