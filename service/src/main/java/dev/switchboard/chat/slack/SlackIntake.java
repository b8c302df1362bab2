package dev.switchboard.chat.slack;

import dev.switchboard.bridge.Binding;
import dev.switchboard.bridge.SessionDriver;
import dev.switchboard.bridge.TurnRefused;
import dev.switchboard.bridge.UntrustedData;
import dev.switchboard.bridge.engine.Actor;
import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;
import dev.switchboard.protocol.kagent.Hitl;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one Slack app's events into the bridge's inputs, one event at a time on the app's intake thread (so a
 * thread's messages reach the bridge in the order Slack sent them). A mention in a bound channel, or a direct
 * message, is a turn of its thread's session; a reply in a thread the bot is part of answers a pending question,
 * or waits in the store to reach the agent inside the next turn as untrusted data.
 */
final class SlackIntake {

    private static final Logger LOG = LoggerFactory.getLogger(SlackIntake.class);
    /** a thread's replies held for its next turn, and the characters kept of each */
    static final int MAX_SIDE_MESSAGES = 50;
    static final int MAX_SIDE_CHARS = 4_000;
    /** Slack's own limit on a message's text */
    static final int MAX_TEXT = 40_000;
    static final String DIRECT_MESSAGES = "im";

    private final String app;
    private final SlackStore store;
    private final ChatStore chats;
    private final SessionDriver driver;
    private final SlackPeople people;
    private final SlackPoster poster;
    /** channel (or {@link #DIRECT_MESSAGES}) → the Binding in force there now, or null */
    private final Function<String, Binding> byChannel;
    private final Clock clock;
    private final Supplier<String> botUserId;
    private final SlackApprovers approvers;
    private final SlackApi api;
    private volatile SlackFeedback feedback;
    private volatile SlackAssistant assistant;

    SlackIntake(String app, SlackStore store, ChatStore chats, SessionDriver driver, SlackPeople people, SlackPoster poster,
            Function<String, Binding> byChannel, Clock clock, Supplier<String> botUserId, SlackApprovers approvers,
            SlackApi api) {
        this.app = app;
        this.store = store;
        this.chats = chats;
        this.driver = driver;
        this.people = people;
        this.poster = poster;
        this.byChannel = byChannel;
        this.clock = clock;
        this.botUserId = botUserId;
        this.approvers = approvers;
        this.api = api;
    }

    /** Where 👍/👎 clicks and assistant thread events go; set before anything is received. */
    void extras(SlackFeedback f, SlackAssistant a) {
        this.feedback = f;
        this.assistant = a;
    }

    /** Handles an {@code event_callback} envelope recorded under {@code eventId}; blocks. */
    void handle(String eventId, JsonObject envelope) {
        try {
            JsonObject event = envelope.getValue("event") instanceof JsonObject o ? o : null;
            if (SlackAssistant.handles(event)) {
                if (assistant != null) {
                    assistant.threadEvent(event);
                }
                return;
            }
            Incoming in = Incoming.of(event, bot(envelope));
            if (in instanceof Incoming.Turn t) {
                turn(t);
            } else if (in instanceof Incoming.ThreadReply r) {
                reply(r);
            } else if (LOG.isDebugEnabled()) {
                LOG.debug("slack {}: event {} starts nothing: {}", app, eventId, ((Incoming.Nothing) in).why());
            }
        } catch (RuntimeException e) {
            LOG.error("slack {}: event {} failed: {}", app, eventId, e.toString());
        }
        store.eventHandled(eventId);
    }

    /** The bot's user id: from auth.test, else from the envelope's authorizations. */
    private String bot(JsonObject envelope) {
        String id = botUserId.get();
        if (id != null) {
            return id;
        }
        JsonArray auths = envelope.getValue("authorizations") instanceof JsonArray a ? a : new JsonArray();
        for (Object o : auths) {
            if (o instanceof JsonObject a && Boolean.TRUE.equals(a.getValue("is_bot")) && a.getValue("user_id") instanceof String u) {
                return u;
            }
        }
        return null;
    }

    private void turn(Incoming.Turn t) {
        Binding binding = byChannel.apply(t.direct() ? DIRECT_MESSAGES : t.channel());
        if (binding == null) {
            LOG.debug("slack {}: channel {} is not bound; the mention is ignored", app, t.channel());
            return;
        }
        Instant now = clock.instant();
        String threadTs = t.threadKey();
        String threadId = SlackThreads.threadId(t.channel(), threadTs);
        SlackApprovers.Verdict may = approvers.mayStart(binding.name(), t.user());
        if (!may.allowed()) {
            // not a turn, nor an answer: told to them alone
            tell(t.channel(), threadTs, t.user(), may.sentence() + " Nothing was sent to the agent.");
            return;
        }
        ChatThread thread = chats.ensureThread(new ChatThread(threadId, Platform.SLACK, t.channel(), binding.name(),
                title(t.text()), now, now));
        List<SlackStore.SideMessage> side = store.sideMessages(threadId, MAX_SIDE_MESSAGES);
        String text = UntrustedData.append(bounded(t.text(), MAX_TEXT), "Replies in this thread since the last turn",
                Platform.SLACK.configName(), "thread-replies", entries(side));
        if (text.isBlank()) {
            poster.say(t.channel(), threadTs, "Mention me with a message for the agent.");
            return;
        }
        if (t.threadTs() != null && !mayAnswer(thread, t.channel(), threadTs, t.user(), t.text())) {
            keep(threadId, t.ts(), t.user(), t.text());
            return;
        }
        if (accept(thread, t.channel(), threadTs, t.ts(), text, people.actor(t.user())) && !side.isEmpty()) {
            store.dropSideMessages(threadId, side.get(side.size() - 1).ts());
        }
    }

    private void reply(Incoming.ThreadReply r) {
        String threadId = SlackThreads.threadId(r.channel(), r.threadTs());
        ChatThread thread = chats.thread(threadId).orElse(null);
        if (thread == null) {
            return; // a thread the bot is not part of
        }
        if (await(driver.awaitsAnswer(threadId)) && approvers.mayStart(thread.binding(), r.user()).allowed()
                && mayAnswer(thread, r.channel(), r.threadTs(), r.user(), r.text())) {
            accept(thread, r.channel(), r.threadTs(), r.ts(), bounded(r.text(), MAX_TEXT), people.actor(r.user()));
        } else {
            keep(threadId, r.ts(), r.user(), r.text());
        }
    }

    /** A reply that is not for the agent now: kept to reach it inside the next turn, as untrusted data. */
    private void keep(String threadId, String ts, String user, String text) {
        if (store.sideMessageCount(threadId) < MAX_SIDE_MESSAGES) {
            store.addSideMessage(threadId, ts, user, bounded(text, MAX_SIDE_CHARS));
        } else {
            LOG.debug("slack {}: thread {} holds {} replies already; this one is not kept", app, threadId, MAX_SIDE_MESSAGES);
        }
    }

    /**
     * Whether a typed message may go to the thread's session as the answer it would be: while a kagent tool call
     * waits for approval, the next message of the thread decides it (a clear yes approves), so only someone who
     * may decide ({@link SlackApprovers}) is let through, and a yes only when Slack showed every call whole
     * ({@link SlackBlocks#showsWhole}). Anyone refused is told, in the thread, to them alone.
     */
    private boolean mayAnswer(ChatThread thread, String channel, String threadTs, String user, String text) {
        Hitl.Request.ToolApproval pending = pendingApproval(thread.threadId());
        if (pending == null) {
            return true;
        }
        SlackApprovers.Verdict v = approvers.verdict(thread.binding(), user, List.of());
        if (!v.allowed()) {
            tell(channel, threadTs, user, v.why() + " Your message was not taken as an answer.");
            return false;
        }
        if (!SlackBlocks.showsWhole(pending) && Hitl.fromText(pending, text) instanceof Hitl.Answer.Decision d
                && d.approved()) {
            tell(channel, threadTs, user, NOT_SHOWN);
            return false;
        }
        return true;
    }

    private static final String NOT_SHOWN = "Slack could not show these tool calls whole, so they cannot be approved "
            + "from Slack; nothing was decided. You can reject them.";

    /** The tool approval the thread's session waits for, or null (no question, or another kind). */
    private Hitl.Request.ToolApproval pendingApproval(String threadId) {
        if (!await(driver.awaitsAnswer(threadId))) {
            return null;
        }
        List<Post> posts = chats.posts(threadId);
        for (int i = posts.size() - 1; i >= 0; i--) {
            Post p = posts.get(i);
            if (Post.QUESTION.equals(p.kind())) {
                return p.data() != null && Hitl.parseRequest(p.data()) instanceof Hitl.Request.ToolApproval a ? a : null;
            }
        }
        return null;
    }

    /** A message in the thread only {@code user} sees; a failure to tell is logged, nothing more. */
    private void tell(String channel, String threadTs, String user, String text) {
        try {
            api.postEphemeral(channel, threadTs, user, text);
        } catch (SlackApi.Failure e) {
            LOG.warn("slack {}: could not tell {} in {}: {}", app, user, channel, e.getMessage());
        }
    }

    /** The action id of a button that answers a question with its value. */
    static final String ANSWER_ACTION = "switchboard_answer";

    /**
     * A button press ({@code block_actions}): a button of ours answers its thread's pending question with the
     * button's value. Its messageId is the question message's, so however often it is clicked (or the click is
     * delivered) the question is answered once; a click after the question is settled does nothing.
     */
    void interaction(JsonObject payload) {
        try {
            if (!"block_actions".equals(text(payload, "type"))) {
                return;
            }
            // every field read by its type: a payload is Slack's, but a field of another type (or null) is nothing
            JsonObject user = object(payload, "user");
            JsonObject channel = object(payload, "channel");
            JsonObject message = object(payload, "message");
            JsonObject container = object(payload, "container");
            String threadTs = or(text(container, "thread_ts"), text(message, "thread_ts"));
            String channelId = or(text(channel, "id"), text(container, "channel_id"));
            String messageTs = or(text(container, "message_ts"), text(message, "ts"));
            String userId = text(user, "id");
            if (userId == null || channelId == null || threadTs == null || messageTs == null) {
                return;
            }
            for (Object o : array(payload, "actions")) {
                if (!(o instanceof JsonObject action) || text(action, "action_id") == null) {
                    continue;
                }
                String actionId = text(action, "action_id");
                String threadId = SlackThreads.threadId(channelId, threadTs);
                if (SlackFeedback.ACTION.equals(actionId)) {
                    if (feedback != null) {
                        feedback.clicked(threadId, userId, text(action, "value"),
                                binding -> approvers.mayStart(binding, userId).allowed());
                    }
                    return;
                }
                if (actionId.startsWith("switchboard_") && !ANSWER_ACTION.equals(actionId)) {
                    decide(threadId, channelId, threadTs, actionId, action, payload, userId);
                    return;
                }
                if (!ANSWER_ACTION.equals(actionId)) {
                    continue;
                }
                ChatThread thread = chats.thread(threadId).orElse(null);
                if (thread != null && await(driver.awaitsAnswer(threadId))) {
                    accept(thread, channelId, threadTs, "action-" + messageTs, bounded(or(text(action, "value"), ""), MAX_TEXT),
                            people.actor(userId));
                }
                return;
            }
        } catch (RuntimeException e) {
            LOG.error("slack {}: a button press failed: {}", app, e.toString());
        }
    }

    /**
     * A click on a kagent question's buttons or form ({@link SlackBlocks}): the structured answer it makes, given to
     * the bridge as the answer to that question post. Its messageId is derived from the question, so any number of
     * clicks (a double click, Approve then Reject, a redelivery) is one answer. A click on a question that no longer
     * waits is refused by the bridge and does nothing; a pick in a form waits for its Send button.
     */
    private void decide(String threadId, String channelId, String threadTs, String actionId, JsonObject action,
            JsonObject payload, String userId) {
        String value = actionId.startsWith(SlackBlocks.PICK) ? selected(action) : or(text(action, "value"), "");
        String questionId = value == null ? null : value.split("\\|", 2)[0];
        Post question = questionId == null || questionId.isEmpty() ? null : chats.post(questionId).orElse(null);
        ChatThread thread = chats.thread(threadId).orElse(null);
        if (question == null || thread == null || !question.threadId().equals(threadId)
                || !Post.QUESTION.equals(question.kind()) || question.data() == null) {
            LOG.debug("slack {}: a click on {} names no question of thread {}", app, actionId, threadId);
            return;
        }
        Hitl.Request request = Hitl.parseRequest(question.data());
        Hitl.Answer answer;
        if (actionId.equals(SlackBlocks.APPROVE) || actionId.equals(SlackBlocks.REJECT)) {
            if (!(request instanceof Hitl.Request.ToolApproval approval)) {
                return;
            }
            // the click's team claims, then who the person is: a button in the channel is no right to decide
            SlackApprovers.Verdict v = approvers.verdict(thread.binding(), userId, teams(payload));
            if (!v.allowed()) {
                tell(channelId, threadTs, userId, v.why());
                return;
            }
            // the button may be an old message's, or forged: Approve covers every call, so every call must show
            if (actionId.equals(SlackBlocks.APPROVE) && !SlackBlocks.showsWhole(approval)) {
                tell(channelId, threadTs, userId, NOT_SHOWN);
                return;
            }
            answer = new Hitl.Answer.Decision(actionId.equals(SlackBlocks.APPROVE), null);
        } else if (!(request instanceof Hitl.Request.AskUser ask)) {
            return;
        } else if (actionId.startsWith(SlackBlocks.CHOICE) || actionId.startsWith(SlackBlocks.PICK)) {
            // one click answers a single single-choice question; in a form a pick waits for Send
            if (ask.questions().size() != 1 || ask.questions().get(0).multiple()) {
                return;
            }
            String choice = choice(ask, value);
            if (choice == null) {
                return;
            }
            answer = new Hitl.Answer.Answers(List.of(List.of(choice)));
        } else if (actionId.equals(SlackBlocks.SEND)) {
            answer = formAnswers(ask, questionId, object(object(payload, "state"), "values"));
            String problem = Hitl.problem(request, answer);
            if (problem != null) {
                if (await(driver.awaitsAnswer(threadId))) {
                    List<List<String>> given = ((Hitl.Answer.Answers) answer).answers();
                    int empty = given.indexOf(List.of());
                    poster.say(channelId, threadTs, "Those answers were not sent: " + (empty >= 0
                            ? "question " + (empty + 1) + " has no answer yet" : problem) + ". Answer every question, then send again.");
                }
                return;
            }
        } else {
            return;
        }
        try {
            await(driver.answer(thread, "slack-answer-" + questionId, questionId, answer, Hitl.label(answer),
                    people.actor(userId)));
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            if (cause instanceof TurnRefused.NotTheQuestion || e instanceof TurnRefused.NotTheQuestion) {
                LOG.debug("slack {}: a click on question {} does nothing: {}", app, questionId, cause.getMessage());
            } else {
                LOG.error("slack {}: the answer to question {} was not accepted: {}", app, questionId, cause.toString());
            }
        }
    }

    /** The teams a click says its person is of: {@code user.team_id} and {@code team.id}, those present. */
    private static List<String> teams(JsonObject payload) {
        List<String> out = new ArrayList<>();
        for (Object t : new Object[] {object(payload, "user").getValue("team_id"), object(payload, "team").getValue("id")}) {
            if (t != null) {
                out.add(t instanceof String s ? s : String.valueOf(t));
            }
        }
        return out;
    }

    /** The value of a select's choice (a single select's option, or the first of several). */
    private static String selected(JsonObject action) {
        if (action.getValue("selected_option") instanceof JsonObject one) {
            return text(one, "value");
        }
        JsonArray many = array(action, "selected_options");
        return !many.isEmpty() && many.getValue(0) instanceof JsonObject o ? text(o, "value") : null;
    }

    /** A choice named by a value {@code <question post>|<question>|<choice>}, read from the stored question. */
    private static String choice(Hitl.Request.AskUser ask, String value) {
        String[] v = value == null ? new String[0] : value.split("\\|");
        if (v.length != 3) {
            return null;
        }
        try {
            int q = Integer.parseInt(v[1]);
            int c = Integer.parseInt(v[2]);
            List<String> choices = q >= 0 && q < ask.questions().size() ? ask.questions().get(q).choices() : List.of();
            return c >= 0 && c < choices.size() ? choices.get(c) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * A form's answers from the message's state as the Send click carries it ({@code state.values}, by block
     * {@code q<i>} and action {@code switchboard_pick_<i>}); a question left empty is an empty list.
     */
    private static Hitl.Answer.Answers formAnswers(Hitl.Request.AskUser ask, String questionId, JsonObject values) {
        List<List<String>> all = new ArrayList<>();
        for (int i = 0; i < ask.questions().size(); i++) {
            JsonObject element = object(object(values, SlackBlocks.QUESTION_BLOCK + i), SlackBlocks.PICK + i);
            List<String> picked = new ArrayList<>();
            if (element.getValue("value") instanceof String typed && !typed.isBlank()) {
                picked.add(bounded(typed.strip(), MAX_SIDE_CHARS));
            }
            List<Object> options = new ArrayList<>();
            if (element.getValue("selected_option") instanceof JsonObject o) {
                options.add(o);
            }
            if (element.getValue("selected_options") instanceof JsonArray a) {
                a.forEach(options::add);
            }
            for (Object o : options) {
                String value = o instanceof JsonObject opt ? text(opt, "value") : null;
                String c = value != null && value.startsWith(questionId + "|") ? choice(ask, value) : null;
                if (c != null && !picked.contains(c)) {
                    picked.add(c);
                }
            }
            all.add(picked);
        }
        return new Hitl.Answer.Answers(all);
    }

    /** Hands a message to the bridge and waits until it is accepted (written) or refused. */
    private boolean accept(ChatThread thread, String channel, String threadTs, String ts, String text, Actor actor) {
        try {
            await(driver.accept(thread, SlackThreads.messageId(channel, ts), text, actor));
            return true;
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            if (cause instanceof TurnRefused.QueueFull) {
                poster.say(channel, threadTs, "Too many messages are waiting for the agent in this thread, so this one "
                        + "was not sent. Try again once it has answered.");
            } else if (cause instanceof TurnRefused refused) {
                poster.say(channel, threadTs, "This message was not sent to the agent: " + refused.getMessage());
            } else {
                LOG.error("slack {}: message {} in {} was not accepted: {}", app, ts, channel, cause.toString());
            }
            return false;
        }
    }

    private List<UntrustedData.Entry> entries(List<SlackStore.SideMessage> side) {
        List<UntrustedData.Entry> out = new ArrayList<>();
        for (SlackStore.SideMessage m : side) {
            Actor a = m.userId() == null ? null : people.actor(m.userId());
            String who = a == null ? null : (a.name() == null ? a.id() : a.name() + " (" + a.id() + ")");
            out.add(new UntrustedData.Entry(who, m.text()));
        }
        return out;
    }

    private static <T> T await(Future<T> f) {
        try {
            return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the bridge did not take the message within 60 s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    /** The field if it is a JSON object, else an empty one (absent, null, or of another type). */
    private static JsonObject object(JsonObject o, String key) {
        return o.getValue(key) instanceof JsonObject x ? x : new JsonObject();
    }

    /** The field if it is a JSON array, else an empty one. */
    private static JsonArray array(JsonObject o, String key) {
        return o.getValue(key) instanceof JsonArray x ? x : new JsonArray();
    }

    /** The field if it is a string, else null. */
    private static String text(JsonObject o, String key) {
        return o.getValue(key) instanceof String x ? x : null;
    }

    private static String or(String a, String b) {
        return a != null ? a : b;
    }

    private static String title(String text) {
        String line = text.strip().lines().findFirst().orElse("Slack thread");
        return line.length() > 80 ? line.substring(0, 80) : line;
    }

    private static String bounded(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max);
    }
}
