package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.protocol.Json;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.VersionDetector;
import dev.switchboard.protocol.codec.A2aFormatException;
import dev.switchboard.protocol.codec.WireCodec;
import dev.switchboard.protocol.jsonrpc.JsonRpcCodec;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.jsonrpc.JsonRpcException;
import dev.switchboard.protocol.jsonrpc.JsonRpcRequest;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.SendMessageParams;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.TaskQueryParams;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;
import dev.switchboard.testkit.Behavior.TaskBehavior;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/** The agent's JSON-RPC endpoint: reads a call, tells its version, and answers it in that version. */
final class RpcEndpoint implements Handler<RoutingContext> {

    /** How long a task left behind by /linger keeps working. */
    private static final long LINGER_MS = 3_600_000;

    private static final String VERSION_HEADER = "A2A-Version";

    private final TestAgentOptions options;
    private final String endpointUrl;
    private final Recorder recorder;
    private final TaskStore store = new TaskStore();
    private final ScriptPlayer player;
    /** How many sends of each messageId arrived, for {@code /busy} and {@code /first}. */
    private final Map<String, AtomicInteger> sends = new ConcurrentHashMap<>();

    RpcEndpoint(TestAgentOptions options, String endpointUrl, Recorder recorder, ScriptPlayer player) {
        this.options = options;
        this.endpointUrl = endpointUrl;
        this.recorder = recorder;
        this.player = player;
    }

    @Override
    public void handle(RoutingContext ctx) {
        Buffer body = ctx.body().buffer();
        recorder.record(ctx.request(), body);
        String versionParam = versionParam(ctx);
        WireCodec fallbackCodec = WireCodec.of(versionParam == null ? ProtocolVersion.V0_3 : ProtocolVersion.V1_0);
        JsonRpcRequest request;
        try {
            request = JsonRpcCodec.readRequest(body == null ? new byte[0] : body.getBytes());
        } catch (JsonRpcException e) {
            new RpcCall(ctx, fallbackCodec, orNull(e.id())).error(e.code(), e.getMessage());
            return;
        }
        JsonNode id = orNull(request.id());
        VersionDetector.Detection detection = VersionDetector.detect(versionParam, request.method());
        if (detection instanceof VersionDetector.Unsupported unsupported) {
            new RpcCall(ctx, fallbackCodec, id).error(JsonRpcError.VERSION_NOT_SUPPORTED, unsupported.reason());
            return;
        }
        ProtocolVersion version = ((VersionDetector.Detected) detection).version();
        RpcCall call = new RpcCall(ctx, WireCodec.of(version), id);
        // Only an agent whose card lists hitl/v1 activates it, and only for the exact URI (kagent's interceptor).
        if (options.kagentHitl() && KagentHitl.requested(ctx.request().headers())) {
            call.activateHitl();
        }
        if (!options.serves(version)) {
            call.error(JsonRpcError.VERSION_NOT_SUPPORTED, "this agent serves A2A "
                    + options.versions().stream().map(ProtocolVersion::label).sorted().collect(Collectors.joining(" and "))
                    + ", not " + version.label());
            return;
        }
        Optional<A2aMethod> method = A2aMethod.fromName(request.method())
                .filter(m -> m.nameIn(version).filter(request.method()::equals).isPresent());
        if (method.isEmpty()) {
            call.error(JsonRpcError.METHOD_NOT_FOUND, "method not found in A2A " + version.label() + ": " + request.method());
            return;
        }
        JsonNode params = request.params() == null || request.params().isNull()
                ? Json.mapper().createObjectNode() : request.params();
        attempt(call, () -> dispatch(call, method.get(), params));
    }

    /** Runs {@code work}, turning what it throws into the JSON-RPC error that names the problem. */
    private static void attempt(RpcCall call, Runnable work) {
        try {
            work.run();
        } catch (JsonRpcException e) {
            call.error(e.code(), e.getMessage());
        } catch (A2aFormatException | IllegalArgumentException e) {
            call.error(JsonRpcError.INVALID_PARAMS, e.getMessage());
        } catch (RuntimeException e) {
            call.error(JsonRpcError.INTERNAL_ERROR, "testkit agent failed: " + e);
        }
    }

    private void dispatch(RpcCall call, A2aMethod method, JsonNode params) {
        if (!options.implemented(method)) {
            throw failure(JsonRpcError.METHOD_NOT_FOUND, "this agent does not implement " + request(method, call));
        }
        switch (method) {
            case SEND_MESSAGE -> send(call, params, false);
            case SEND_STREAMING_MESSAGE -> send(call, params, true);
            case GET_TASK -> getTask(call, params);
            case CANCEL_TASK -> cancelTask(call, params);
            case SUBSCRIBE_TO_TASK -> subscribe(call, params);
            case LIST_TASKS -> call.reply(call.codec().writeListTasksResult(store.list(call.codec().readListTasksParams(params))));
            case CREATE_PUSH_CONFIG, GET_PUSH_CONFIG, LIST_PUSH_CONFIGS, DELETE_PUSH_CONFIG ->
                    throw failure(JsonRpcError.PUSH_NOTIFICATION_NOT_SUPPORTED, "push notifications are not supported");
            case GET_EXTENDED_CARD ->
                    throw failure(JsonRpcError.EXTENDED_CARD_NOT_CONFIGURED, "this agent has no extended card");
        }
    }

    private void send(RpcCall call, JsonNode params, boolean streaming) {
        if (streaming && !options.streaming()) {
            throw failure(JsonRpcError.UNSUPPORTED_OPERATION, "this agent does not stream");
        }
        SendMessageParams send = call.codec().readSendParams(params);
        Message message = send.message();
        if (message == null) {
            throw new IllegalArgumentException("params.message is required");
        }
        if (blank(message.messageId())) {
            throw new IllegalArgumentException("params.message.messageId is required");
        }
        if (message.parts().isEmpty()) {
            throw new IllegalArgumentException("params.message.parts must hold at least one part");
        }
        int sendNumber = sends.computeIfAbsent(message.messageId(), k -> new AtomicInteger()).incrementAndGet();
        // An answer to a question is echoed unless it names a behaviour itself: the agent's default
        // (which may be /ask) would otherwise never let the task finish.
        Behavior fallback = blank(message.taskId()) ? options.defaultBehavior() : Behavior.echo();
        Directive directive;
        try {
            directive = Directive.of(message, fallback);
        } catch (IllegalArgumentException e) {
            // A task rejected with the problem ends the caller's turn (the agent contract's Task states); a
            // JSON-RPC error would be retried, and a chat thread would say "retrying" for a quarter of an hour.
            directive = new Directive(new Behavior.Reject("malformed testkit directive: " + e.getMessage()), "");
        }
        perform(call, send, directive.behavior(), directive.text(), streaming, sendNumber);
    }

    /**
     * Does what {@code behavior} says with one send.
     *
     * @param sendNumber how many sends of this messageId the agent has received, this one included
     */
    private void perform(RpcCall call, SendMessageParams send, Behavior behavior, String text, boolean streaming,
            int sendNumber) {
        if (behavior instanceof Behavior.Hold hold) {
            player.schedule(hold.delayMs(),
                    () -> attempt(call, () -> perform(call, send, hold.then(), text, streaming, sendNumber)));
        } else if (behavior instanceof Behavior.RpcError error) {
            call.error(error.code(), error.message());
        } else if (behavior instanceof Behavior.HttpStatus status) {
            call.httpStatus(status.status(), endpointUrl);
        } else if (behavior instanceof Behavior.RetryAfter retryAfter) {
            call.header("Retry-After", Long.toString(retryAfter.seconds()));
            perform(call, send, retryAfter.then(), text, streaming, sendNumber);
        } else if (behavior instanceof Behavior.Redirect redirect) {
            call.redirect(redirect.status(), redirect.location());
        } else if (behavior instanceof Behavior.BareMessage) {
            bareMessage(call, send.message(), text, streaming);
        } else if (behavior instanceof Behavior.Busy busy) {
            if (sendNumber <= busy.times()) {
                call.error(JsonRpcError.UNSUPPORTED_OPERATION, "agent busy, try again later");
            } else {
                perform(call, send, busy.then(), text, streaming, sendNumber);
            }
        } else if (behavior instanceof Behavior.First first) {
            perform(call, send, sendNumber <= first.times() ? first.fault() : Behavior.echo(), text, streaming, sendNumber);
        } else if (behavior instanceof Behavior.Chaos chaos) {
            perform(call, send, draw(chaos), text, streaming, sendNumber);
        } else if (behavior instanceof Behavior.Drop drop) {
            runTask(call, send, drop.then(), text, streaming, Run.shaped(EventStream.Shape.dropAfter(drop.afterEvents())));
        } else if (behavior instanceof Behavior.Orphan orphan) {
            runTask(call, send, orphan.then(), text, streaming, new Run(EventStream.Shape.NORMAL, orphan.status(), false));
        } else if (behavior instanceof Behavior.NoIds noIds) {
            runTask(call, send, noIds.then(), text, streaming, Run.shaped(new EventStream.Shape(-1, -1, -1, true, true, false)));
        } else if (behavior instanceof Behavior.NoContext noContext) {
            runTask(call, send, noContext.then(), text, streaming,
                    Run.shaped(new EventStream.Shape(-1, -1, -1, false, true, false)));
        } else if (behavior instanceof Behavior.EndEarly end) {
            runTask(call, send, end.then(), text, streaming,
                    Run.shaped(new EventStream.Shape(-1, end.afterEvents(), -1, false, false, false)));
        } else if (behavior instanceof Behavior.Mute mute) {
            runTask(call, send, mute.then(), text, streaming,
                    Run.shaped(new EventStream.Shape(-1, -1, mute.afterEvents(), false, false, false)));
        } else if (behavior instanceof Behavior.FullTask full) {
            runTask(call, send, full.then(), text, streaming, Run.shaped(new EventStream.Shape(-1, -1, -1, false, false, true)));
        } else if (behavior instanceof Behavior.Linger linger) {
            runTask(call, send, linger.then(), text, streaming, new Run(EventStream.Shape.NORMAL, 0, false, true));
        } else if (behavior instanceof Behavior.Vanish vanish) {
            runTask(call, send, new Behavior.Echo(), text, streaming,
                    new Run(EventStream.Shape.dropAfter(vanish.afterEvents()), 0, true));
        } else if (behavior instanceof TaskBehavior task) {
            runTask(call, send, task, text, streaming, Run.shaped(EventStream.Shape.NORMAL));
        } else if (behavior instanceof Behavior.Silence) {
            return; // no answer at all: the connection stays open until the caller gives up or the agent closes
        }
    }

    /** One draw of {@code /chaos}. */
    private static Behavior draw(Behavior.Chaos chaos) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int roll = random.nextInt(100);
        if (roll < chaos.dropPercent()) {
            return new Behavior.Drop(random.nextInt(3), chaos.then());
        }
        roll -= chaos.dropPercent();
        if (roll < chaos.unavailablePercent()) {
            return random.nextBoolean() ? new Behavior.HttpStatus(503) : new Behavior.Orphan(503, chaos.then());
        }
        roll -= chaos.unavailablePercent();
        if (roll < chaos.busyPercent()) {
            return new Behavior.RpcError(JsonRpcError.UNSUPPORTED_OPERATION, "agent busy, try again later");
        }
        return chaos.then();
    }

    private static void bareMessage(RpcCall call, Message received, String text, boolean streaming) {
        String contextId = blank(received.contextId()) ? newContextId() : received.contextId();
        Message reply = Message.agentText("msg-" + UUID.randomUUID(), text).withIds(contextId, null);
        if (streaming) {
            call.sendStream(EventStream.Shape.NORMAL).send(reply);
        } else {
            call.reply(call.codec().writeSendResult(reply));
        }
    }

    /**
     * How a task's send is answered.
     *
     * @param shape how its stream misbehaves
     * @param answerStatus when positive, the call is answered with this HTTP status and no event while the task runs
     * @param forgetWhenCut forget the task when its stream ends or is cut (the agent "restarted")
     */
    private record Run(EventStream.Shape shape, int answerStatus, boolean forgetWhenCut, boolean linger) {
        Run(EventStream.Shape shape, int answerStatus, boolean forgetWhenCut) {
            this(shape, answerStatus, forgetWhenCut, false);
        }

        static Run shaped(EventStream.Shape shape) {
            return new Run(shape, 0, false);
        }
    }

    private void runTask(RpcCall call, SendMessageParams send, TaskBehavior behavior, String text, boolean streaming, Run run) {
        Message message = send.message();
        Integer historyLength = send.configuration() == null ? null : send.configuration().historyLength();
        if (options.dedupe() && blank(message.taskId())) {
            Optional<AgentTask> seen = store.findByMessageId(message.messageId());
            if (seen.isPresent()) {
                repeat(call, send, seen.get(), historyLength, streaming, run);
                return;
            }
        }
        AgentTask task = blank(message.taskId()) ? newTask(message, behavior) : pausedTask(message);
        task.addUserMessage(message);
        recorder.recordExecution(message.messageId());
        // A task paused on a kagent hitl/v1 request takes a structured answer, whatever its text says.
        ObjectNode pendingHitl = task.takePendingHitl();
        task.hitlActivated(call.hitlActivated());
        Script script = pendingHitl != null
                ? KagentHitl.resume(pendingHitl, message, call.hitlActivated())
                : behavior.script(text);
        EventStream.Shape shape = run.shape();
        if (run.answerStatus() > 0) {
            call.httpStatus(run.answerStatus(), endpointUrl);
        } else if (streaming) {
            EventStream stream = call.sendStream(shape);
            if (shape.endWithTask()) {
                stream.endWith(() -> task.snapshot(historyLength, true));
            }
            Consumer<StreamEvent> listener = stream::send;
            stream.onClose(() -> {
                task.unsubscribe(listener);
                if (run.forgetWhenCut()) {
                    store.forget(task.id());
                }
            });
            task.follow(historyLength, listener);
        } else if (shape.dropAfter() >= 0) {
            call.cut();
            if (run.forgetWhenCut()) {
                store.forget(task.id());
            }
        } else if (send.configuration() != null && Boolean.TRUE.equals(send.configuration().returnImmediately())) {
            call.reply(call.codec().writeSendResult(task.snapshot(historyLength, true)));
        } else {
            awaitSettled(call, task, historyLength);
        }
        player.play(task, script);
        if (run.linger()) {
            // a second task of the same context, still working when the first has ended
            AgentTask lingering = store.create(task.contextId());
            lingering.addUserMessage(Message.userText("linger-" + UUID.randomUUID(), text, task.contextId(), null, null));
            player.play(lingering, new Behavior.Slow(LINGER_MS).script(text));
        }
    }

    /**
     * A send whose messageId started a task already (an agent that dedupes, {@link TestAgentOptions#dedupe()}):
     * nothing runs again; the call is answered with that task, a stream follows it as a subscription does.
     */
    private static void repeat(RpcCall call, SendMessageParams send, AgentTask task, Integer historyLength,
            boolean streaming, Run run) {
        if (run.answerStatus() > 0) {
            call.httpStatus(run.answerStatus(), null);
        } else if (streaming && run.shape().dropAfter() == 0) {
            call.cut();
        } else if (streaming) {
            EventStream stream = call.stream(run.shape(), true);
            Consumer<StreamEvent> listener = stream::send;
            stream.onClose(() -> task.unsubscribe(listener));
            task.follow(historyLength, listener);
        } else {
            TaskState state = task.status().state();
            boolean immediately = send.configuration() != null && Boolean.TRUE.equals(send.configuration().returnImmediately());
            if (immediately || state.isTerminal() || state.isInterrupted()) {
                call.reply(call.codec().writeSendResult(task.snapshot(historyLength, true)));
            } else {
                awaitSettled(call, task, historyLength);
            }
        }
    }

    private AgentTask newTask(Message message, TaskBehavior behavior) {
        boolean freshContext = blank(message.contextId()) || behavior instanceof Behavior.NewContext;
        return store.create(freshContext ? newContextId() : message.contextId());
    }

    /** The task a message with a taskId continues: it must exist, be in the same context and wait for input. */
    private AgentTask pausedTask(Message message) {
        AgentTask task = store.find(message.taskId())
                .orElseThrow(() -> failure(JsonRpcError.TASK_NOT_FOUND, "task not found: " + message.taskId()));
        TaskState state = task.status().state();
        if (state.isTerminal()) {
            throw failure(JsonRpcError.UNSUPPORTED_OPERATION,
                    "task " + task.id() + " is " + state.name().toLowerCase() + " and takes no more messages");
        }
        if (!blank(message.contextId()) && !message.contextId().equals(task.contextId())) {
            throw new IllegalArgumentException("contextId " + message.contextId() + " does not match task " + task.id()
                    + " (context " + task.contextId() + ")");
        }
        if (!state.isInterrupted()) {
            throw failure(JsonRpcError.UNSUPPORTED_OPERATION,
                    "task " + task.id() + " is still " + state.name().toLowerCase() + "; send again when it asks for input");
        }
        return task;
    }

    /** Blocking send: answers once the task ends or pauses for input. */
    private static void awaitSettled(RpcCall call, AgentTask task, Integer historyLength) {
        AtomicBoolean answered = new AtomicBoolean();
        Consumer<StreamEvent> listener = new Consumer<>() {
            @Override
            public void accept(StreamEvent event) {
                if (event instanceof TaskStatusUpdateEvent update
                        && (update.status().state().isTerminal() || update.status().state().isInterrupted())
                        && answered.compareAndSet(false, true)) {
                    task.unsubscribe(this);
                    call.reply(call.codec().writeSendResult(task.snapshot(historyLength, true)));
                }
            }
        };
        call.onHangUp(() -> task.unsubscribe(listener));
        task.listen(listener);
    }

    private void getTask(RpcCall call, JsonNode params) {
        TaskQueryParams query = call.codec().readTaskQuery(params);
        call.reply(call.codec().writeTask(existing(query).snapshot(query.historyLength(), true)));
    }

    private void cancelTask(RpcCall call, JsonNode params) {
        TaskQueryParams query = call.codec().readTaskQuery(params);
        AgentTask task = existing(query);
        if (!task.cancel()) {
            throw failure(JsonRpcError.TASK_NOT_CANCELABLE,
                    "task " + task.id() + " is already " + task.status().state().name().toLowerCase());
        }
        call.reply(call.codec().writeTask(task.snapshot(query.historyLength(), true)));
    }

    /** The current Task first, then live events until the task ends or pauses; an ended task gets -32004. */
    private void subscribe(RpcCall call, JsonNode params) {
        if (!options.streaming()) {
            throw failure(JsonRpcError.UNSUPPORTED_OPERATION, "this agent does not stream");
        }
        TaskQueryParams query = call.codec().readTaskQuery(params);
        AgentTask task = existing(query);
        if (task.status().state().isTerminal()) {
            throw failure(JsonRpcError.UNSUPPORTED_OPERATION, "task " + task.id() + " has ended; use GetTask");
        }
        EventStream stream = call.subscription();
        Consumer<StreamEvent> listener = stream::send;
        stream.onClose(() -> task.unsubscribe(listener));
        task.follow(query.historyLength(), listener);
    }

    private AgentTask existing(TaskQueryParams query) {
        if (blank(query.id())) {
            throw new IllegalArgumentException("params.id is required");
        }
        return store.find(query.id()).orElseThrow(() -> failure(JsonRpcError.TASK_NOT_FOUND, "task not found: " + query.id()));
    }

    private static String request(A2aMethod method, RpcCall call) {
        return method.nameIn(call.codec().version()).orElse(method.name());
    }

    private static String versionParam(RoutingContext ctx) {
        String header = ctx.request().getHeader(VERSION_HEADER);
        if (header != null) {
            return header;
        }
        try {
            return ctx.request().getParam(VERSION_HEADER);
        } catch (IllegalArgumentException malformedQuery) {
            return null; // a query that cannot be decoded names no version
        }
    }

    private static JsonNode orNull(JsonNode id) {
        return id == null ? Json.mapper().nullNode() : id;
    }

    private static JsonRpcException failure(int code, String message) {
        return new JsonRpcException(null, code, message);
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    private static String newContextId() {
        return "ctx-" + UUID.randomUUID();
    }
}
