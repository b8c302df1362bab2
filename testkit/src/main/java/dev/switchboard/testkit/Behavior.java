package dev.switchboard.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.Json;
import java.util.List;
import java.util.Locale;

/**
 * What a test agent does with one message. A behaviour comes from the message's directive line
 * ({@code /stream 3 50}), from its {@code testkit/behavior} metadata, or from the agent's default.
 *
 * <p>{@link TaskBehavior}s run a task through its states; the other behaviours misbehave at the
 * JSON-RPC or HTTP level, which is where agents break in ways a client must survive.
 */
public sealed interface Behavior {

    /** The directive that selects this behaviour, e.g. {@code /stream 3 50}; {@link #parse} reads it back. */
    String directive();

    /** Behaviours that run a task: the agent creates (or resumes) a task and moves it through its states. */
    sealed interface TaskBehavior extends Behavior {
        /** The steps that answer {@code text}. */
        Script script(String text);
    }

    /** Completes with one artifact holding the message text. */
    record Echo() implements TaskBehavior {
        @Override
        public Script script(String text) {
            return Script.echo(text);
        }

        @Override
        public String directive() {
            return "/echo";
        }
    }

    /** Sends the text as {@code chunks} artifact chunks, {@code delayMs} apart, then completes. */
    record Stream(int chunks, long delayMs) implements TaskBehavior {
        public Stream {
            require(chunks >= 1, "/stream needs at least 1 chunk, got " + chunks);
            require(delayMs >= 0, "/stream delay must not be negative, got " + delayMs);
        }

        @Override
        public Script script(String text) {
            return Script.stream(text, chunks, delayMs);
        }

        @Override
        public String directive() {
            return "/stream " + chunks + " " + delayMs;
        }
    }

    /** Works for {@code delayMs}, then completes like {@link Echo}. */
    record Slow(long delayMs) implements TaskBehavior {
        public Slow {
            require(delayMs >= 0, "/slow delay must not be negative, got " + delayMs);
        }

        @Override
        public Script script(String text) {
            return Script.slow(text, delayMs);
        }

        @Override
        public String directive() {
            return "/slow " + delayMs;
        }
    }

    /**
     * A long task that keeps its stream alive, as the agent contract asks: working, then {@code beats}
     * more working status updates {@code intervalMs} apart (no message, nothing a client shows), then the
     * text as the artifact, completed.
     */
    record Heartbeat(int beats, long intervalMs) implements TaskBehavior {
        public Heartbeat {
            require(beats >= 1, "/heartbeat needs at least 1 beat, got " + beats);
            require(intervalMs >= 0, "/heartbeat interval must not be negative, got " + intervalMs);
        }

        @Override
        public Script script(String text) {
            return Script.heartbeat(text, beats, intervalMs);
        }

        @Override
        public String directive() {
            return "/heartbeat " + beats + " " + intervalMs;
        }
    }

    /**
     * Pauses in input-required with {@code question} as the status message; the next message to the task answers it.
     * {@code /ask} alone asks {@link #DEFAULT_QUESTION}.
     */
    record Ask(String question) implements TaskBehavior {
        public static final String DEFAULT_QUESTION = "What should I answer with?";

        public Ask {
            require(question != null && !question.isBlank(), "/ask needs a question");
        }

        @Override
        public Script script(String text) {
            return Script.ask(question);
        }

        @Override
        public String directive() {
            return "/ask " + question;
        }
    }

    /** Completes without any artifact. */
    record Empty() implements TaskBehavior {
        @Override
        public Script script(String text) {
            return Script.empty();
        }

        @Override
        public String directive() {
            return "/empty";
        }
    }

    /**
     * Fails with {@code message} as the status message text and {@code {"code": code}} as its metadata.
     * {@code /fail} alone fails with {@link #DEFAULT_CODE} and "testkit failure".
     */
    record Fail(String code, String message) implements TaskBehavior {
        public static final String DEFAULT_CODE = "testkit_error";

        public Fail {
            require(code != null && !code.isBlank(), "/fail needs a code");
            message = message == null || message.isBlank() ? "testkit failure" : message;
        }

        @Override
        public Script script(String text) {
            return Script.fail(code, message);
        }

        @Override
        public String directive() {
            return "/fail " + code + " " + message;
        }
    }

    /** Ends the task rejected, with {@code reason} as its status message. */
    record Reject(String reason) implements TaskBehavior {
        public static final String DEFAULT_REASON = "rejected by the testkit agent";

        public Reject {
            reason = reason == null || reason.isBlank() ? DEFAULT_REASON : reason;
        }

        public Reject() {
            this(DEFAULT_REASON);
        }

        @Override
        public Script script(String text) {
            return Script.reject(reason);
        }

        @Override
        public String directive() {
            return reason.equals(DEFAULT_REASON) ? "/reject" : "/reject " + reason;
        }
    }

    /** Echoes, but in a fresh contextId, ignoring the one the client sent (the agent "forgot" the conversation). */
    record NewContext() implements TaskBehavior {
        @Override
        public Script script(String text) {
            return Script.echo(text);
        }

        @Override
        public String directive() {
            return "/newcontext";
        }
    }

    /** Answers the JSON-RPC call with this error instead of running anything. */
    record RpcError(int code, String message) implements Behavior {
        public RpcError {
            message = message == null || message.isBlank() ? "testkit error" : message;
        }

        @Override
        public String directive() {
            return "/error " + code + " " + message;
        }
    }

    /** Replies with a bare agent Message echoing the text: no task at all. */
    record BareMessage() implements Behavior {
        @Override
        public String directive() {
            return "/message";
        }
    }

    /** Answers with this HTTP status and no JSON-RPC body (3xx carry a Location back to the endpoint). */
    record HttpStatus(int status) implements Behavior {
        public HttpStatus {
            require(status >= 200 && status <= 599, "/http needs a status 200..599, got " + status);
        }

        @Override
        public String directive() {
            return "/http " + status;
        }
    }

    /** Never answers: no status line, no headers, the connection stays open. */
    record Silence() implements Behavior {
        @Override
        public String directive() {
            return "/silence";
        }
    }

    /**
     * Cuts the connection after {@code afterEvents} stream events (a non-streaming call gets no answer
     * at all); the task itself goes on with {@code then}, so GetTask and SubscribeToTask see it finish.
     */
    record Drop(int afterEvents, TaskBehavior then) implements Behavior {
        public Drop {
            require(afterEvents >= 0, "/drop needs a number of events >= 0, got " + afterEvents);
            require(then != null, "/drop needs a task behaviour to go on with");
        }

        @Override
        public String directive() {
            return "/drop " + afterEvents + " " + then.directive();
        }
    }

    /** Holds back the response, headers included, for {@code delayMs}, then behaves as {@code then}. */
    record Hold(long delayMs, Behavior then) implements Behavior {
        public Hold {
            require(delayMs >= 0, "/hold delay must not be negative, got " + delayMs);
            require(then != null, "/hold needs a behaviour to go on with");
        }

        @Override
        public String directive() {
            return "/hold " + delayMs + " " + then.directive();
        }
    }

    /**
     * Goes to auth-required (a status message saying so) and stays paused; after {@code resumeAfterMs}
     * (when positive) the agent moves on as if the user had signed in elsewhere: working, the text as the
     * artifact, completed. No message to the task resumes it.
     */
    record AuthRequired(long resumeAfterMs) implements TaskBehavior {
        public AuthRequired {
            require(resumeAfterMs >= 0, "/auth delay must not be negative, got " + resumeAfterMs);
        }

        @Override
        public Script script(String text) {
            return Script.authRequired(text, resumeAfterMs);
        }

        @Override
        public String directive() {
            return resumeAfterMs > 0 ? "/auth " + resumeAfterMs : "/auth";
        }
    }

    /** Pauses in input-required with a status message made of a data part only: a question a2a cannot show. */
    record AskData() implements TaskBehavior {
        @Override
        public Script script(String text) {
            return Script.askData();
        }

        @Override
        public String directive() {
            return "/askdata";
        }
    }

    /**
     * The first {@code times} sends of a messageId are answered -32004 (busy) and run nothing; later
     * sends of it behave as {@code then}. The agent counts sends per messageId.
     */
    record Busy(int times, Behavior then) implements Behavior {
        public Busy {
            require(times >= 0, "/busy needs a number of refusals >= 0, got " + times);
            require(then != null, "/busy needs a behaviour to go on with");
        }

        @Override
        public String directive() {
            return "/busy " + times + " " + then.directive();
        }
    }

    /**
     * The first {@code times} sends of a messageId behave as {@code fault}; later sends of it echo. For
     * faults a client must survive by sending again: {@code /first 1 /http 503}, {@code /first 2 /hold 40000}.
     */
    record First(int times, Behavior fault) implements Behavior {
        public First {
            require(times >= 0, "/first needs a number of sends >= 0, got " + times);
            require(fault != null, "/first needs a behaviour for the first sends");
        }

        @Override
        public String directive() {
            return "/first " + times + " " + fault.directive();
        }
    }

    /**
     * Takes the message and runs its task per {@code then} (so GetTask and ListTasks see it), but answers
     * the call with HTTP {@code status} and no event: the caller cannot know the task exists.
     */
    record Orphan(int status, TaskBehavior then) implements Behavior {
        public Orphan {
            require(status >= 200 && status <= 599, "/orphan needs a status 200..599, got " + status);
            require(then != null, "/orphan needs a task behaviour to run");
        }

        @Override
        public String directive() {
            return "/orphan " + status + " " + then.directive();
        }
    }

    /** Behaves as {@code then}, with a {@code Retry-After: seconds} header on the response. */
    record RetryAfter(long seconds, Behavior then) implements Behavior {
        public RetryAfter {
            require(seconds >= 0, "/retryafter needs seconds >= 0, got " + seconds);
            require(then != null, "/retryafter needs a behaviour to go on with");
        }

        @Override
        public String directive() {
            return "/retryafter " + seconds + " " + then.directive();
        }
    }

    /** Answers with a redirect ({@code status}, 3xx) to {@code location}, and runs nothing. */
    record Redirect(int status, String location) implements Behavior {
        public Redirect {
            require(status >= 300 && status <= 399, "/redirect needs a status 300..399, got " + status);
            require(location != null && !location.isBlank(), "/redirect needs a location");
        }

        @Override
        public String directive() {
            return "/redirect " + status + " " + location;
        }
    }

    /** Runs {@code then}, but its stream events name neither the task nor its context (no taskId, id or contextId). */
    record NoIds(TaskBehavior then) implements Behavior {
        public NoIds {
            require(then != null, "/noids needs a task behaviour to run");
        }

        @Override
        public String directive() {
            return "/noids " + then.directive();
        }
    }

    /**
     * Runs {@code then}, and in the same context starts a second task that keeps working (a background job the agent
     * left behind) until it is cancelled or an hour has passed: two tasks of one context run at once.
     */
    record Linger(TaskBehavior then) implements Behavior {
        public Linger {
            require(then != null, "/linger needs a task behaviour to run");
        }

        @Override
        public String directive() {
            return "/linger " + then.directive();
        }
    }

    /** Runs {@code then}, but its stream events name the task without its contextId. */
    record NoContext(TaskBehavior then) implements Behavior {
        public NoContext {
            require(then != null, "/nocontext needs a task behaviour to run");
        }

        @Override
        public String directive() {
            return "/nocontext " + then.directive();
        }
    }

    /**
     * Ends the stream properly (a clean end of the response, no reset) after {@code afterEvents} events,
     * whatever state the task is in; the task goes on with {@code then}. {@code /end 1} ends after the
     * first Task, still submitted.
     */
    record EndEarly(int afterEvents, TaskBehavior then) implements Behavior {
        public EndEarly {
            require(afterEvents >= 1, "/end needs a number of events >= 1, got " + afterEvents);
            require(then != null, "/end needs a task behaviour to go on with");
        }

        @Override
        public String directive() {
            return "/end " + afterEvents + " " + then.directive();
        }
    }

    /**
     * Streams {@code afterEvents} events, then sends nothing more while the connection stays open; the
     * task goes on with {@code then} (GetTask sees it finish). A stream that falls silent.
     */
    record Mute(int afterEvents, TaskBehavior then) implements Behavior {
        public Mute {
            require(afterEvents >= 1, "/mute needs a number of events >= 1, got " + afterEvents);
            require(then != null, "/mute needs a task behaviour to go on with");
        }

        @Override
        public String directive() {
            return "/mute " + afterEvents + " " + then.directive();
        }
    }

    /**
     * Runs {@code then} and ends its stream with the full Task in its settled state (terminal,
     * input-required or auth-required), as the agent contract asks; by default a stream ends on the
     * status update, as a2a-js servers do.
     */
    record FullTask(TaskBehavior then) implements Behavior {
        public FullTask {
            require(then != null, "/fulltask needs a task behaviour to run");
        }

        @Override
        public String directive() {
            return "/fulltask " + then.directive();
        }
    }

    /**
     * Streams {@code afterEvents} events, then cuts the connection and forgets the task, as an agent
     * that restarted: GetTask, SubscribeToTask and CancelTask of it get -32001 (task not found).
     */
    record Vanish(int afterEvents) implements Behavior {
        public Vanish {
            require(afterEvents >= 1, "/vanish needs a number of events >= 1, got " + afterEvents);
        }

        @Override
        public String directive() {
            return "/vanish " + afterEvents;
        }
    }

    /**
     * Each send draws a fault: with {@code dropPercent} the stream is cut after 0 to 2 events (the task
     * goes on); with {@code unavailablePercent} the call gets HTTP 503 before any event (on every other
     * such draw the task runs anyway); with {@code busyPercent} -32004; otherwise {@code then}. For
     * soaks: combine with {@link TestAgentOptions#withDedupe(boolean)} so a resent messageId is not run again.
     */
    record Chaos(int dropPercent, int unavailablePercent, int busyPercent, TaskBehavior then) implements Behavior {
        public Chaos {
            require(dropPercent >= 0 && unavailablePercent >= 0 && busyPercent >= 0
                    && dropPercent + unavailablePercent + busyPercent <= 100,
                    "/chaos needs three percentages >= 0 adding up to at most 100");
            require(then != null, "/chaos needs a task behaviour to run");
        }

        @Override
        public String directive() {
            return "/chaos " + dropPercent + " " + unavailablePercent + " " + busyPercent + " " + then.directive();
        }
    }

    /**
     * kagent tool approval (hitl/v1): working, then input-required asking to approve one call of {@code tool} with
     * {@code args}. With the extension activated (an agent whose card lists it, see {@link TestAgentOptions#kagent},
     * and a call with {@code A2A-Extensions: https://kagent.dev/extensions/hitl/v1}) the status message carries a
     * display text, {@code extensions:[URI]} and {@code metadata[URI] = {type: tool_approval_request, hint, tools:[{id,
     * call_id, name, args}]}}; otherwise only kagent's readable text, as kagent sends a client that did not opt in.
     * The answer is a message to the same task with {@code metadata[URI] = {type: tool_approval_response,
     * approvals:[{id, approved, rejection_reason?}]}} naming every id once: approved runs the tool (function_call and
     * function_response step cards, artifact "approved TOOL: done"), rejected ends with "rejected TOOL: REASON"; a
     * bad answer fails the task with kagent's error text, as kagent does (no JSON-RPC error).
     */
    record Approve(String tool, ObjectNode args) implements TaskBehavior {
        public static final String DEFAULT_TOOL = "delete_pod";

        public Approve {
            require(tool != null && !tool.isBlank() && !tool.contains(" "), "/approve needs a tool name without spaces");
            args = args == null ? JsonNodeFactory.instance.objectNode() : args.deepCopy();
        }

        @Override
        public Script script(String text) {
            return Script.approve("Approval required for " + tool, List.of(KagentHitl.Tool.of(tool, args.deepCopy())));
        }

        @Override
        public String directive() {
            return "/approve " + tool + (args.isEmpty() ? "" : " " + args);
        }
    }

    /**
     * Like {@link Approve} with several pending tools in one flat list, decided independently: two (delete_file and
     * restart_deployment) by default; {@code /approvemany N} asks for N tools scale_1 … scale_N, {@code {"replica": i}}.
     */
    record ApproveMany(int count) implements TaskBehavior {
        public ApproveMany {
            require(count >= 1 && count <= 1_000, "/approvemany takes 1 to 1000 tools, got " + count);
        }

        public ApproveMany() {
            this(2);
        }

        @Override
        public Script script(String text) {
            if (count == 2) {
                ObjectNode path = JsonNodeFactory.instance.objectNode().put("path", "/tmp/old");
                ObjectNode deployment = JsonNodeFactory.instance.objectNode().put("name", "api").put("namespace", "production");
                return Script.approve("Two operations require approval",
                        List.of(KagentHitl.Tool.of("delete_file", path), KagentHitl.Tool.of("restart_deployment", deployment)));
            }
            List<KagentHitl.Tool> tools = new java.util.ArrayList<>();
            for (int i = 1; i <= count; i++) {
                tools.add(KagentHitl.Tool.of("scale_" + i, JsonNodeFactory.instance.objectNode().put("replica", i)));
            }
            return Script.approve(count + " operations require approval", tools);
        }

        @Override
        public String directive() {
            return count == 2 ? "/approvemany" : "/approvemany " + count;
        }
    }

    /**
     * Like {@link Approve}, paused because a subagent paused: {@code tools} holds the parent's remote-agent tool
     * (k8s_agent) and {@code nested} the subagent's task, context and tools (delete_pod). The answer names the
     * nested tools' ids, not the parent's.
     */
    record ApproveNested() implements TaskBehavior {
        @Override
        public Script script(String text) {
            JsonNodeFactory json = JsonNodeFactory.instance;
            return Script.approveNested("k8s_agent",
                    KagentHitl.Tool.of("k8s_agent", json.objectNode().put("request", "Remove the obsolete pod")),
                    List.of(KagentHitl.Tool.of("delete_pod", json.objectNode().put("name", "obsolete").put("namespace", "production"))));
        }

        @Override
        public String directive() {
            return "/approvenested";
        }
    }

    /**
     * kagent ask-user (hitl/v1): input-required with {@code metadata[URI] = {type: ask_user_request, id, questions}},
     * one single-choice and one multiple-choice question. The answer {@code {type: ask_user_response, id,
     * answers:[{answer:[…]}, …]}} is positional; the task completes with an artifact of "QUESTION ANSWERS" lines.
     */
    record AskUser() implements TaskBehavior {
        @Override
        public Script script(String text) {
            return Script.askUser();
        }

        @Override
        public String directive() {
            return "/askuser";
        }
    }

    /**
     * kagent step cards: working status updates whose messages carry a text part and a function_call DataPart
     * {@code {id, name, args}}, then a function_response DataPart {@code {id, name, response:{result, isError}}},
     * typed by {@code kagent_type} metadata (or {@code adk_type} with {@code adk}, the upstream ADK spelling), then
     * the text as the artifact, completed.
     */
    record Steps(boolean adkPrefix) implements TaskBehavior {
        @Override
        public Script script(String text) {
            return Script.steps(text, adkPrefix ? "adk_" : "kagent_");
        }

        @Override
        public String directive() {
            return adkPrefix ? "/steps adk" : "/steps";
        }
    }

    /**
     * Fails as a kagent agent does when the model stops with an error: a failed status whose message is one text
     * part (kagent's text for the code) and metadata {@code {"kagent_error_code": code}}. {@code /kfail} alone
     * fails with MAX_TOKENS.
     */
    record KagentFail(String code) implements TaskBehavior {
        public static final String DEFAULT_CODE = "MAX_TOKENS";

        public KagentFail {
            require(code != null && !code.isBlank() && !code.contains(" "), "/kfail needs one error code, e.g. MAX_TOKENS");
        }

        /** kagent's friendly texts (kagent-adk converters/error_mappings.py) for the codes tests use, else its default. */
        String message() {
            return switch (code) {
                case "MAX_TOKENS" -> "Response was truncated due to maximum token limit. Try asking a shorter question or breaking it into parts.";
                case "SAFETY" -> "Response was blocked due to safety concerns. Please rephrase your request to avoid potentially harmful content.";
                default -> "An error occurred during processing";
            };
        }

        @Override
        public Script script(String text) {
            return Script.kagentFail(code, message());
        }

        @Override
        public String directive() {
            return "/kfail " + code;
        }
    }

    static Behavior echo() {
        return new Echo();
    }

    /**
     * Reads one directive line, e.g. {@code /stream 3 50}; the leading slash is optional.
     *
     * @throws IllegalArgumentException naming the problem, for an unknown directive or bad arguments
     */
    static Behavior parse(String directive) {
        if (directive == null || directive.isBlank()) {
            throw new IllegalArgumentException("empty testkit directive");
        }
        String line = directive.strip();
        if (!line.startsWith("/")) {
            line = "/" + line;
        }
        String[] head = line.split("\\s+", 2);
        String name = head[0].toLowerCase(Locale.ROOT);
        String rest = head.length > 1 ? head[1].strip() : "";
        return switch (name) {
            case "/echo" -> new Echo();
            case "/stream" -> {
                String[] args = words(rest, 0, 2, name);
                yield new Stream(args.length > 0 ? integer(args[0], name) : 3, args.length > 1 ? number(args[1], name) : 0);
            }
            case "/slow" -> new Slow(number(words(rest, 1, 1, name)[0], name));
            case "/ask" -> new Ask(rest.isEmpty() ? Ask.DEFAULT_QUESTION : rest);
            case "/empty" -> noArgs(new Empty(), rest);
            case "/fail" -> {
                String[] args = rest.split("\\s+", 2);
                yield new Fail(rest.isEmpty() ? Fail.DEFAULT_CODE : args[0], args.length > 1 ? args[1] : null);
            }
            case "/reject" -> new Reject(rest);
            case "/newcontext" -> noArgs(new NewContext(), rest);
            case "/error" -> {
                String[] args = rest.split("\\s+", 2);
                yield new RpcError(integer(args[0], name), args.length > 1 ? args[1] : null);
            }
            case "/message" -> noArgs(new BareMessage(), rest);
            case "/http" -> new HttpStatus(integer(words(rest, 1, 1, name)[0], name));
            case "/silence" -> noArgs(new Silence(), rest);
            case "/drop" -> {
                String[] args = rest.split("\\s+", 2);
                Behavior then = args.length > 1 ? parse(args[1]) : new Echo();
                if (!(then instanceof TaskBehavior task)) {
                    throw new IllegalArgumentException("/drop must be followed by a task behaviour, not " + then.directive());
                }
                yield new Drop(integer(args[0], name), task);
            }
            case "/hold" -> {
                String[] args = rest.split("\\s+", 2);
                yield new Hold(number(args[0], name), args.length > 1 ? parse(args[1]) : new Echo());
            }
            case "/heartbeat" -> {
                String[] args = words(rest, 2, 2, name);
                yield new Heartbeat(integer(args[0], name), number(args[1], name));
            }
            case "/auth" -> new AuthRequired(rest.isEmpty() ? 0 : number(words(rest, 1, 1, name)[0], name));
            case "/askdata" -> noArgs(new AskData(), rest);
            case "/busy" -> {
                String[] args = rest.split("\\s+", 2);
                yield new Busy(integer(args[0], name), args.length > 1 ? parse(args[1]) : new Echo());
            }
            case "/first" -> {
                String[] args = rest.split("\\s+", 2);
                require(args.length > 1, "/first needs a number and a directive, got '" + rest + "'");
                yield new First(integer(args[0], name), parse(args[1]));
            }
            case "/orphan" -> {
                String[] args = rest.split("\\s+", 2);
                yield new Orphan(integer(args[0], name), task(args.length > 1 ? parse(args[1]) : new Echo(), name));
            }
            case "/retryafter" -> {
                String[] args = rest.split("\\s+", 2);
                require(args.length > 1, "/retryafter needs seconds and a directive, got '" + rest + "'");
                yield new RetryAfter(number(args[0], name), parse(args[1]));
            }
            case "/redirect" -> {
                String[] args = words(rest, 2, 2, name);
                yield new Redirect(integer(args[0], name), args[1]);
            }
            case "/noids" -> new NoIds(task(rest.isEmpty() ? new Echo() : parse(rest), name));
            case "/nocontext" -> new NoContext(task(rest.isEmpty() ? new Echo() : parse(rest), name));
            case "/end" -> {
                String[] args = rest.split("\\s+", 2);
                yield new EndEarly(integer(args[0], name), task(args.length > 1 ? parse(args[1]) : new Echo(), name));
            }
            case "/mute" -> {
                String[] args = rest.split("\\s+", 2);
                yield new Mute(integer(args[0], name), task(args.length > 1 ? parse(args[1]) : new Echo(), name));
            }
            case "/fulltask" -> new FullTask(task(rest.isEmpty() ? new Echo() : parse(rest), name));
            case "/linger" -> new Linger(task(rest.isEmpty() ? new Echo() : parse(rest), name));
            case "/approve" -> {
                String[] args = rest.split("\\s+", 2);
                yield new Approve(rest.isEmpty() ? Approve.DEFAULT_TOOL : args[0], args.length > 1 ? jsonObject(args[1], name) : null);
            }
            case "/approvemany" -> rest.isEmpty() ? new ApproveMany() : new ApproveMany(integer(words(rest, 1, 1, name)[0], name));
            case "/approvenested" -> noArgs(new ApproveNested(), rest);
            case "/askuser" -> noArgs(new AskUser(), rest);
            case "/steps" -> {
                require(rest.isEmpty() || rest.equalsIgnoreCase("adk"), "/steps takes nothing or 'adk', got '" + rest + "'");
                yield new Steps(!rest.isEmpty());
            }
            case "/kfail" -> new KagentFail(rest.isEmpty() ? KagentFail.DEFAULT_CODE : words(rest, 1, 1, name)[0]);
            case "/vanish" -> new Vanish(integer(words(rest, 1, 1, name)[0], name));
            case "/chaos" -> {
                String[] args = rest.split("\\s+", 4);
                require(args.length >= 3, "/chaos takes three percentages and a directive, got '" + rest + "'");
                yield new Chaos(integer(args[0], name), integer(args[1], name), integer(args[2], name),
                        task(args.length > 3 ? parse(args[3]) : new Echo(), name));
            }
            default -> throw new IllegalArgumentException("unknown testkit directive " + head[0]);
        };
    }

    private static TaskBehavior task(Behavior then, String name) {
        if (!(then instanceof TaskBehavior task)) {
            throw new IllegalArgumentException(name + " must be followed by a task behaviour, not " + then.directive());
        }
        return task;
    }

    private static Behavior noArgs(Behavior behavior, String rest) {
        require(rest.isEmpty(), behavior.directive() + " takes no arguments, got '" + rest + "'");
        return behavior;
    }

    private static String[] words(String rest, int min, int max, String name) {
        String[] args = rest.isEmpty() ? new String[0] : rest.split("\\s+");
        require(args.length >= min && args.length <= max,
                name + " takes " + (min == max ? min : min + " to " + max) + " arguments, got '" + rest + "'");
        return args;
    }

    private static ObjectNode jsonObject(String text, String name) {
        try {
            JsonNode node = Json.mapper().readTree(text);
            if (node instanceof ObjectNode object) {
                return object;
            }
        } catch (JsonProcessingException e) {
            // reported below
        }
        throw new IllegalArgumentException(name + " expects the arguments as a JSON object, got '" + text + "'");
    }

    private static int integer(String text, String name) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " expects an integer, got '" + text + "'");
        }
    }

    private static long number(String text, String name) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " expects a number of milliseconds, got '" + text + "'");
        }
    }

    private static void require(boolean condition, String problem) {
        if (!condition) {
            throw new IllegalArgumentException(problem);
        }
    }
}
