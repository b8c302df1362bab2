package dev.switchboard.testkit;

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

    /** Pauses in input-required with {@code question} as the status message; the next message to the task answers it. */
    record Ask(String question) implements TaskBehavior {
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

    /** Fails with {@code message} as the status message text and {@code {"code": code}} as its metadata. */
    record Fail(String code, String message) implements TaskBehavior {
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

    /** Ends the task rejected. */
    record Reject() implements TaskBehavior {
        @Override
        public Script script(String text) {
            return Script.reject();
        }

        @Override
        public String directive() {
            return "/reject";
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
            case "/ask" -> new Ask(rest);
            case "/empty" -> noArgs(new Empty(), rest);
            case "/fail" -> {
                String[] args = rest.split("\\s+", 2);
                yield new Fail(args[0], args.length > 1 ? args[1] : null);
            }
            case "/reject" -> noArgs(new Reject(), rest);
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
            default -> throw new IllegalArgumentException("unknown testkit directive " + head[0]);
        };
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
