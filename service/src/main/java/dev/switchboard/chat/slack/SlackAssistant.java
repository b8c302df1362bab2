package dev.switchboard.chat.slack;

import dev.switchboard.bridge.Binding;
import dev.switchboard.protocol.model.AgentSkill;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Slack's agent view (issue 28): an assistant thread the person opens ({@code assistant_thread_started}) is offered
 * suggested prompts from the agent's skills (as configured, else from its card) — their examples, else their names — and the session starts with the
 * person's first message there (a direct message in a thread, as any other). Only apps whose Binding takes direct
 * messages ({@code im}) answer.
 */
final class SlackAssistant {

    private static final Logger LOG = LoggerFactory.getLogger(SlackAssistant.class);
    /** Slack shows at most four suggested prompts. */
    static final int MAX_PROMPTS = 4;
    private static final int MAX_TITLE = 75;
    private static final int MAX_MESSAGE = 1_000;

    private final String app;
    private final SlackApi api;
    private final Function<String, Binding> byChannel;
    private final Function<String, List<AgentSkill>> skillsOf;

    /** @param skillsOf a Binding's agent's skills, by the Binding's name (empty when unknown); may block */
    SlackAssistant(String app, SlackApi api, Function<String, Binding> byChannel, Function<String, List<AgentSkill>> skillsOf) {
        this.app = app;
        this.api = api;
        this.byChannel = byChannel;
        this.skillsOf = skillsOf;
        offering.allowCoreThreadTimeOut(true);
    }

    static boolean handles(JsonObject event) {
        String type = event == null ? null : event.getValue("type") instanceof String s ? s : null;
        return "assistant_thread_started".equals(type) || "assistant_thread_context_changed".equals(type);
    }

    /**
     * Offers work that may wait on the agent's card (up to {@link dev.switchboard.bridge.AgentSkills}'s wait) off the
     * app's event thread, which handles every other event: one thread, a short queue; beyond it, no prompts.
     */
    private final java.util.concurrent.ThreadPoolExecutor offering = new java.util.concurrent.ThreadPoolExecutor(1, 1,
            30, java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.ArrayBlockingQueue<>(64), r -> {
                Thread t = new Thread(r, "slack-prompts");
                t.setDaemon(true);
                return t;
            }, new java.util.concurrent.ThreadPoolExecutor.DiscardPolicy());

    /** An assistant thread opened (or its context changed: the prompts are offered again), offered on its own thread. */
    void threadEvent(JsonObject event) {
        offering.execute(() -> offer(event));
    }

    private void offer(JsonObject event) {
        JsonObject thread = event.getValue("assistant_thread") instanceof JsonObject o ? o : null;
        String channel = thread == null ? null : thread.getValue("channel_id") instanceof String s ? s : null;
        String threadTs = thread == null ? null : thread.getValue("thread_ts") instanceof String s ? s : null;
        Binding binding = byChannel.apply(SlackIntake.DIRECT_MESSAGES);
        if (channel == null || threadTs == null || binding == null) {
            return;
        }
        List<String[]> prompts = prompts(skillsOf.apply(binding.name()));
        if (prompts.isEmpty()) {
            return;
        }
        try {
            api.setSuggestedPrompts(channel, threadTs, "Try asking", prompts);
        } catch (SlackApi.Failure f) {
            LOG.info("slack {}: could not offer suggested prompts in {}: {}{}", app, channel, f.getMessage(),
                    SlackTroubles.hint(f.error));
        }
    }

    /** Up to four (title, message) prompts: every skill's examples first, then the names of skills without any. */
    static List<String[]> prompts(List<AgentSkill> skills) {
        List<String[]> out = new ArrayList<>();
        for (AgentSkill s : skills == null ? List.<AgentSkill>of() : skills) {
            for (String example : s.examples() == null ? List.<String>of() : s.examples()) {
                if (out.size() < MAX_PROMPTS && example != null && !example.isBlank()) {
                    out.add(new String[] {cut(example, MAX_TITLE), cut(example, MAX_MESSAGE)});
                }
            }
        }
        for (AgentSkill s : skills == null ? List.<AgentSkill>of() : skills) {
            String name = s.name() != null && !s.name().isBlank() ? s.name() : s.id();
            boolean hasExamples = s.examples() != null && s.examples().stream().anyMatch(e -> e != null && !e.isBlank());
            if (out.size() < MAX_PROMPTS && !hasExamples && name != null && !name.isBlank()) {
                String message = s.description() != null && !s.description().isBlank() ? name + ": " + s.description() : name;
                out.add(new String[] {cut(name, MAX_TITLE), cut(message, MAX_MESSAGE)});
            }
        }
        return out;
    }

    private static String cut(String s, int max) {
        String t = s.strip();
        return t.length() <= max ? t : t.substring(0, max - 1) + "…";
    }
}
