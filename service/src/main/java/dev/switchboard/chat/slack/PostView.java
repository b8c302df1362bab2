package dev.switchboard.chat.slack;

import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/** What a post of the bridge looks like as a Slack message (text, and blocks when it has any). */
final class PostView {

    private final SlackStore store;
    private final Function<String, Duration> questionTimeout;
    private final Function<String, String> deciders;
    private final java.util.function.Supplier<String> team;

    /**
     * @param questionTimeout a binding's question timeout, by binding name, for the line under a question
     * @param deciders who may decide a binding's tool calls, by binding name, for the line under an approval
     * @param team the app's team id, null until {@code auth.test} has answered
     */
    PostView(SlackStore store, Function<String, Duration> questionTimeout, Function<String, String> deciders,
            java.util.function.Supplier<String> team) {
        this.store = store;
        this.team = team;
        this.questionTimeout = questionTimeout;
        this.deciders = deciders;
    }

    /** Post {@code p} shown under {@code key}: its own id, or its turn's steps message ({@link SlackPoster#stepsKey}). */
    SlackBlocks.Rendered render(ChatThread thread, Post p, String key) {
        if (!key.equals(p.id())) {
            return SlackBlocks.steps(store.turnPosts(p.turnMessageId()));
        }
        if (Post.QUESTION.equals(p.kind()) && p.data() != null && p.turnMessageId() != null) {
            List<Post> turn = store.turnPosts(p.turnMessageId());
            Post latest = turn.stream().filter(x -> x.id().equals(p.id())).findFirst().orElse(p);
            return SlackBlocks.question(latest, turn, timeoutNote(thread.binding()), deciders.apply(thread.binding()));
        }
        String text = p.text() == null ? "" : p.text();
        return new SlackBlocks.Rendered(switch (p.kind()) {
            case Post.AGENT -> SlackPoster.escape(text);
            case Post.NOTICE -> "_" + SlackPoster.escape(text) + "_";
            case Post.QUESTION -> "*The agent asks:*\n" + SlackPoster.escape(text) + "\n\n_Anyone in this thread can "
                    + "answer: reply in this thread (no need to mention me)" + timeoutNote(thread.binding()) + "._";
            default -> "";
        }, null);
    }

    /**
     * Whom a stream of post {@code p} is for: the person whose message started its turn, in the app's team; null for
     * a turn no person started (a trigger's) or while the team is not known.
     */
    NativeStream.Recipient recipient(Post p) {
        String teamId = team.get();
        if (p.turnMessageId() == null || teamId == null) {
            return null;
        }
        return store.turnPosts(p.turnMessageId()).stream()
                .filter(x -> Post.USER.equals(x.kind()) && x.author() != null && x.author().id() != null).findFirst()
                .map(x -> new NativeStream.Recipient(x.author().id(), teamId)).orElse(null);
    }

    private String timeoutNote(String binding) {
        Duration d = questionTimeout.apply(binding);
        if (d == null) {
            return "";
        }
        long minutes = d.toMinutes();
        return minutes >= 60 && minutes % 60 == 0 ? " within " + (minutes / 60) + " h" : " within " + Math.max(1, minutes) + " min";
    }
}
