package dev.switchboard.chat.slack;

import dev.switchboard.bridge.store.Post;
import dev.switchboard.protocol.kagent.Hitl;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * kagent-v1 posts as Block Kit: a question with its structured request (an approval with Approve and Reject
 * buttons, ask-user questions with their choices) and a turn's step cards, within Slack's limits (50 blocks a
 * message, 3,000 characters a section, 75 a button's label, 2,000 a button's value, 25 elements an actions block).
 * A button's value names only the question post (and a choice's index): the choice itself is read back from the
 * stored question, never from the click.
 */
final class SlackBlocks {

    static final String APPROVE = "switchboard_approve";
    static final String REJECT = "switchboard_reject";
    /** {@code switchboard_choice_<choice>}: a button answering a single single-choice question at once */
    static final String CHOICE = "switchboard_choice_";
    /** {@code switchboard_pick_<question>}: a select, checkboxes or text input of question {@code <question>} */
    static final String PICK = "switchboard_pick_";
    /** sends a form's picks */
    static final String SEND = "switchboard_send";
    static final String QUESTION_BLOCK = "q";

    static final int MAX_BLOCKS = 50;
    static final int SECTION_CHARS = 3_000;
    static final int STEP_CHARS = 280;
    static final int LABEL_CHARS = 75;
    /**
     * Blocks an approval's tools may take: the 50 less its head, the buttons and the line under them (a settled
     * question shows its outcome in the buttons' place), and, when not everything fits, the line saying so.
     */
    static final int TOOL_BLOCKS = MAX_BLOCKS - 4;
    static final int MAX_BUTTON_CHOICES = 5;
    static final int MAX_OPTIONS = 100;
    static final int MAX_CHECKBOXES = 10;
    static final int MAX_FORM_QUESTIONS = 20;

    private static final Set<String> TERMINAL = Set.of("completed", "failed", "rejected", "canceled", "cancelling",
            "not_delivered");

    private SlackBlocks() {}

    /** What a message shows: its text (fallback and notification) and its blocks as a JSON array, or null. */
    record Rendered(String text, String blocks) {}

    // ---- questions ----

    /**
     * A question with a kagent request, as it stands: open (buttons, or a form) until it is answered or its turn
     * ends; then without them, saying who answered what.
     *
     * @param turn the posts of the question's turn ({@link SlackStore#turnPosts}), the question among them
     */
    static Rendered question(Post question, List<Post> turn, String timeoutNote) {
        return question(question, turn, timeoutNote, "Anyone in this workspace but guests");
    }

    /**
     * As above, {@code deciders} saying who may approve or reject (see {@link SlackApprovers#who}).
     */
    static Rendered question(Post question, List<Post> turn, String timeoutNote, String deciders) {
        Hitl.Request request = Hitl.parseRequest(question.data());
        Outcome outcome = outcome(question, turn);
        String asks = question.text() == null || question.text().isBlank() ? "" : question.text();
        JsonArray blocks = new JsonArray();
        String text;
        if (request instanceof Hitl.Request.ToolApproval a) {
            text = "*The agent asks for approval:* " + esc(asks);
            boolean whole = approval(blocks, a, question.id(), outcome == null);
            if (outcome == null && whole) {
                context(blocks, deciders + " can decide" + timeoutNote + ". A reply of theirs in this thread rejects the "
                        + "call with its words as the reason, unless it is a clear yes (_yes_, _approve_, _ok_, _lgtm_).");
            } else if (outcome == null) {
                context(blocks, deciders + " can reject" + timeoutNote + ", here or with a reply in this thread (its "
                        + "words are the reason). Nothing here approves calls Slack cannot show.");
            }
        } else {
            Hitl.Request.AskUser u = (Hitl.Request.AskUser) request;
            text = "*The agent asks:* " + esc(asks);
            askUser(blocks, u, question.id(), outcome == null, timeoutNote);
        }
        if (outcome != null) {
            String said = outcome.said(request);
            context(blocks, said);
            text += "\n" + said;
        }
        return new Rendered(clip(text, SlackPoster.PART_CHARS), blocks.encode());
    }

    /** Who answered, and with what, once a question is settled; null while it waits. */
    record Outcome(Post answer) {
        String said(Hitl.Request request) {
            if (answer == null) {
                return "_This question is no longer waiting for an answer._";
            }
            String who = answer.author() == null ? "someone"
                    : answer.author().name() != null ? answer.author().name() : answer.author().id();
            String words = answer.text() == null ? "" : answer.text().strip();
            if (request instanceof Hitl.Request.ToolApproval) {
                Hitl.Answer.Decision d = (Hitl.Answer.Decision) Hitl.fromText(request, words);
                if (d.approved()) {
                    return ":white_check_mark: *Approved* by " + esc(who);
                }
                String reason = d.reason() == null ? null : d.reason().replaceFirst("^Rejected: ", "");
                return ":x: *Rejected* by " + esc(who) + (reason == null || reason.isBlank() ? "" : ": " + esc(clip(reason, 500)));
            }
            return ":white_check_mark: *Answered* by " + esc(who) + ": " + esc(clip(words, 1_000));
        }
    }

    /**
     * Settled when a later question of the turn was asked, when the turn has ended, or when an answer was taken and
     * the turn no longer waits (a typed line that cannot answer several questions leaves the question open).
     */
    static Outcome outcome(Post question, List<Post> turn) {
        String state = null;
        Post answer = null;
        for (Post p : turn) {
            if (Post.USER.equals(p.kind()) && p.id().equals(question.turnMessageId())) {
                state = p.state();
            } else if (p.seq() > question.seq() && Post.QUESTION.equals(p.kind())) {
                return new Outcome(answer);
            } else if (p.seq() > question.seq() && Post.USER.equals(p.kind())) {
                answer = p;
            }
        }
        boolean ended = state != null && TERMINAL.contains(state.toLowerCase(Locale.ROOT));
        if (ended || (answer != null && !"waiting_for_answer".equalsIgnoreCase(state))) {
            return new Outcome(answer);
        }
        return null;
    }

    /**
     * The tools and their arguments, every one whole, then Approve and Reject. Approve covers every call, so it is
     * offered only when every call is shown whole: arguments longer than a section go on in the next ones, and when
     * the calls need more than {@link #TOOL_BLOCKS} sections (Slack's 50 blocks a message) the message says so and
     * offers Reject alone. Returns whether everything was shown.
     */
    private static boolean approval(JsonArray blocks, Hitl.Request.ToolApproval a, String questionId, boolean open) {
        String hint = a.hint() != null && !a.hint().isBlank() ? a.hint() : a.display();
        String head = ":raised_hand: *Approval needed*" + (a.subagent() == null || a.subagent().isBlank() ? ""
                : " (for the subagent `" + code(a.subagent()) + "`)");
        section(blocks, head + (hint == null || hint.isBlank() ? "" : "\n" + esc(clip(hint, 1_500))));
        boolean whole = showsWhole(a);
        int budget = whole ? TOOL_BLOCKS + 1 : TOOL_BLOCKS;
        int shown = 0;
        for (Hitl.Tool t : a.tools()) {
            List<String> sections = toolSections(t);
            if (sections != null && sections.size() <= budget) {
                sections.forEach(text -> section(blocks, text));
                budget -= sections.size();
                shown++;
            } else if (budget > 0) {
                section(blocks, "*Tool* `" + code(clip(t.name(), 200)) + "`: its arguments ("
                        + (t.argsJson() == null ? 0 : t.argsJson().length()) + " characters) are too long to show here");
                budget--;
            } else {
                break;
            }
        }
        if (!whole) {
            int n = a.tools().size();
            context(blocks, ":warning: *" + (n == 1 ? "This tool call is" : "These " + n + " tool calls are") + " too much to "
                    + "show in one Slack message*" + (shown < n ? " (" + shown + " of " + n + " shown whole)" : "")
                    + ", so Slack cannot approve " + (n == 1 ? "it" : "them") + "; only Reject is offered.");
        }
        if (open) {
            JsonArray buttons = new JsonArray();
            if (whole) {
                buttons.add(button("Approve", APPROVE, questionId).put("style", "primary"));
            }
            buttons.add(button("Reject", REJECT, questionId).put("style", "danger"));
            blocks.add(new JsonObject().put("type", "actions").put("block_id", "switchboard_decide").put("elements", buttons));
        }
        return whole;
    }

    /**
     * Whether a message can show every tool call of the request whole, name and arguments: what Approve (a
     * button, or a typed yes) may cover. Read again when someone approves, never taken from the click.
     */
    static boolean showsWhole(Hitl.Request.ToolApproval a) {
        int sections = 0;
        for (Hitl.Tool t : a.tools()) {
            List<String> s = toolSections(t);
            if (s == null) {
                return false;
            }
            sections += s.size();
            if (sections > TOOL_BLOCKS + 1) {
                return false;
            }
        }
        return true;
    }

    /** The most characters of a tool's name shown: longer ones are not shown whole. */
    static final int TOOL_NAME_CHARS = 500;

    /**
     * A tool call as section texts, each within {@link #SECTION_CHARS}: its name, then its arguments in a code
     * block, continued in as many sections as they need; null when its name is too long to show.
     */
    static List<String> toolSections(Hitl.Tool t) {
        String name = t.name() == null ? "" : t.name();
        if (name.length() > TOOL_NAME_CHARS) {
            return null;
        }
        String first = "*Tool* `" + code(name) + "`\n```";
        String next = "_`" + code(name) + "`, continued_\n```";
        String args = fence(pretty(t.argsJson()));
        List<String> out = new ArrayList<>();
        int at = 0;
        do {
            String prefix = out.isEmpty() ? first : next;
            int room = SECTION_CHARS - prefix.length() - 3;
            int end = cut(args, at, room);
            out.add(prefix + args.substring(at, end) + "```");
            at = end;
        } while (at < args.length());
        return out;
    }

    /**
     * Where to end a piece of {@code text} that starts at {@code from} and holds at most {@code room} characters:
     * after a line break in its second half if there is one, and never inside an entity ({@code &amp;}), a
     * surrogate pair, or next to a backtick (which would run into the code block's fence).
     */
    private static int cut(String text, int from, int room) {
        if (text.length() - from <= room) {
            return text.length();
        }
        int end = from + room;
        int line = text.lastIndexOf('\n', end - 1);
        if (line >= from + room / 2) {
            return line + 1;
        }
        int amp = text.lastIndexOf('&', end - 1);
        if (amp >= Math.max(from, end - 5) && text.indexOf(';', amp) >= end) {
            end = amp;
        }
        while (end > from + 1 && (Character.isLowSurrogate(text.charAt(end)) || text.charAt(end) == '`'
                || text.charAt(end - 1) == '`')) {
            end--;
        }
        return end;
    }

    /**
     * One question with choices that takes one answer: a button per choice (a select beyond five), one click
     * answers. Anything else is a form: a select (one answer), checkboxes or a multi-select (several) or a text
     * input (no choices) per question, sent with one button. A single question may also be answered in the thread.
     */
    private static void askUser(JsonArray blocks, Hitl.Request.AskUser u, String questionId, boolean open,
            String timeoutNote) {
        List<Hitl.Question> qs = u.questions();
        boolean single = qs.size() == 1;
        boolean form = qs.size() <= MAX_FORM_QUESTIONS;
        for (int i = 0; i < qs.size() && blocks.size() < MAX_BLOCKS - 4; i++) {
            Hitl.Question q = qs.get(i);
            String head = (single ? "" : "*" + (i + 1) + ".* ") + "*" + esc(clip(q.question(), 1_000)) + "*"
                    + (q.multiple() ? " _(one or more)_" : "");
            if (!open || !form) {
                // settled, or too many questions for a form: the choices as text
                String choices = q.choices().isEmpty() ? "" : "\n" + String.join("\n",
                        q.choices().stream().limit(MAX_OPTIONS).map(c -> "• " + esc(clip(c, 200))).toList());
                section(blocks, clip(head + choices, SECTION_CHARS));
                continue;
            }
            section(blocks, head);
            String action = PICK + i;
            if (q.choices().isEmpty()) {
                blocks.add(new JsonObject().put("type", "input").put("block_id", QUESTION_BLOCK + i)
                        .put("label", plain("Answer")).put("element", new JsonObject().put("type", "plain_text_input")
                                .put("action_id", action)));
            } else if (single && !q.multiple() && q.choices().size() <= MAX_BUTTON_CHOICES) {
                JsonArray buttons = new JsonArray();
                for (int c = 0; c < q.choices().size(); c++) {
                    buttons.add(button(q.choices().get(c), CHOICE + c, choiceValue(questionId, 0, c)));
                }
                blocks.add(new JsonObject().put("type", "actions").put("block_id", QUESTION_BLOCK + i).put("elements", buttons));
            } else {
                JsonArray options = new JsonArray();
                for (int c = 0; c < Math.min(q.choices().size(), MAX_OPTIONS); c++) {
                    options.add(new JsonObject().put("text", plain(q.choices().get(c))).put("value", choiceValue(questionId, i, c)));
                }
                String type = !q.multiple() ? "static_select" : options.size() <= MAX_CHECKBOXES ? "checkboxes" : "multi_static_select";
                JsonObject element = new JsonObject().put("type", type).put("action_id", action).put("options", options);
                if (!type.equals("checkboxes")) {
                    element.put("placeholder", plain(q.multiple() ? "Choose one or more" : "Choose one"));
                }
                blocks.add(new JsonObject().put("type", "actions").put("block_id", QUESTION_BLOCK + i)
                        .put("elements", new JsonArray().add(element)));
            }
        }
        if (!open) {
            return;
        }
        boolean oneClick = single && !qs.get(0).multiple() && !qs.get(0).choices().isEmpty();
        if (form && !oneClick && !(single && qs.get(0).choices().isEmpty())) {
            blocks.add(new JsonObject().put("type", "actions").put("block_id", "switchboard_send").put("elements",
                    new JsonArray().add(button(single ? "Send answer" : "Send answers", SEND, questionId).put("style", "primary"))));
        }
        String how;
        if (!form) {
            how = "Too many questions to answer here: answer them in the web chat";
        } else if (single && qs.get(0).choices().isEmpty()) {
            how = "Anyone in this thread can answer: reply in this thread";
        } else if (single) {
            how = "Anyone in this thread can answer: " + (oneClick ? "pick one" : "pick, then send")
                    + ", or reply in this thread";
        } else {
            how = "Anyone in this thread can answer: answer every question, then send";
        }
        context(blocks, how + timeoutNote + ".");
    }

    static String choiceValue(String questionId, int question, int choice) {
        return questionId + "|" + question + "|" + choice;
    }

    // ---- step cards ----

    /** A turn's step cards as one message: a context line per card, the latest ones when there are too many. */
    static Rendered steps(List<Post> turn) {
        List<Post> steps = turn.stream().filter(p -> Post.STEP.equals(p.kind())).toList();
        if (steps.isEmpty()) {
            return new Rendered("", null);
        }
        JsonArray blocks = new JsonArray();
        int from = Math.max(0, steps.size() - (MAX_BLOCKS - 1));
        if (from > 0) {
            context(blocks, "_" + from + " earlier steps not shown_");
        }
        List<String> names = new ArrayList<>();
        for (Post s : steps.subList(from, steps.size())) {
            JsonObject d = data(s.data());
            String name = d.getString("name", s.text() == null ? "tool" : s.text());
            String detail = compact(d.getString("detail", ""));
            boolean result = "result".equals(d.getString("kind"));
            boolean error = Boolean.TRUE.equals(d.getValue("error"));
            String mark = !result ? ":wrench:" : error ? ":x:" : ":heavy_check_mark:";
            String line = mark + " `" + code(name) + "`" + (detail.isBlank() ? ""
                    : (result ? (error ? " failed: " : " → ") : " ") + "`" + code(clip(detail, STEP_CHARS)) + "`");
            context(blocks, line);
            names.add((result ? (error ? "✗ " : "✓ ") : "🔧 ") + name);
        }
        return new Rendered(clip("Steps: " + String.join(", ", names), SlackPoster.PART_CHARS), blocks.encode());
    }

    // ---- plumbing ----

    private static JsonObject data(String json) {
        try {
            return json == null ? new JsonObject() : new JsonObject(json);
        } catch (RuntimeException e) {
            return new JsonObject();
        }
    }

    private static void section(JsonArray blocks, String mrkdwn) {
        blocks.add(new JsonObject().put("type", "section").put("text",
                new JsonObject().put("type", "mrkdwn").put("text", clip(mrkdwn, SECTION_CHARS))));
    }

    private static void context(JsonArray blocks, String mrkdwn) {
        blocks.add(new JsonObject().put("type", "context").put("elements", new JsonArray()
                .add(new JsonObject().put("type", "mrkdwn").put("text", clip(mrkdwn, SECTION_CHARS)))));
    }

    private static JsonObject button(String label, String actionId, String value) {
        return new JsonObject().put("type", "button").put("action_id", actionId).put("text", plain(label)).put("value", value);
    }

    /** plain_text is not read as markup: no escaping, only Slack's 75 characters. */
    private static JsonObject plain(String text) {
        String t = text == null || text.isBlank() ? "(empty)" : text;
        return new JsonObject().put("type", "plain_text").put("text", clip(t, LABEL_CHARS)).put("emoji", true);
    }

    private static String esc(String text) {
        return SlackPoster.escape(text == null ? "" : text);
    }

    /** Inside inline code: escaped, and no backtick to end it early. */
    private static String code(String text) {
        return esc(text == null ? "" : text.replace('`', '\'').replace('\n', ' '));
    }

    /** Inside a code block: escaped, and no ``` to end it early. */
    private static String fence(String text) {
        return esc(text).replace("```", "`\u200b``");
    }

    private static String pretty(String json) {
        try {
            Object v = io.vertx.core.json.Json.decodeValue(json);
            return v instanceof JsonObject o ? o.encodePrettily() : v instanceof JsonArray a ? a.encodePrettily() : json;
        } catch (RuntimeException e) {
            return json == null ? "" : json;
        }
    }

    private static String compact(String json) {
        try {
            Object v = io.vertx.core.json.Json.decodeValue(json);
            return v instanceof String s ? s : io.vertx.core.json.Json.encode(v);
        } catch (RuntimeException e) {
            return json == null ? "" : json;
        }
    }

    /** At most {@code max} characters, ending with … when cut, never inside a surrogate pair. */
    static String clip(String text, int max) {
        if (text == null || text.length() <= max) {
            return text == null ? "" : text;
        }
        int cut = max - 1;
        if (Character.isHighSurrogate(text.charAt(cut - 1))) {
            cut--;
        }
        return text.substring(0, cut) + "…";
    }
}
