package dev.switchboard.check;

import static dev.switchboard.check.Evidence.duration;
import static dev.switchboard.check.Evidence.failure;
import static dev.switchboard.check.Evidence.id;

import dev.switchboard.bridge.engine.Contract;
import dev.switchboard.bridge.engine.Notices;
import dev.switchboard.check.StreamProbe.Ending;
import dev.switchboard.client.A2aAgentClient;
import dev.switchboard.client.AgentEndpoint;
import dev.switchboard.client.CallException;
import dev.switchboard.client.CallFailure;
import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.kagent.Hitl;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.ListTasksParams;
import dev.switchboard.protocol.model.ListTasksResult;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.SendMessageParams;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskArtifactUpdateEvent;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * {@code switchboard check}: probes one agent as the chat bridge would call it and judges each contract row it can
 * observe. Every call goes through the bridge's own client ({@link A2aAgentClient}: same endpoint rule, headers, no
 * redirects, 30 s for headers) and every rule is the engine's ({@link Contract}).
 *
 * <p>The probes, in order: the card; a first turn (no contextId); GetTask of its task; a second turn in the context
 * the agent made; ListTasks of those contexts (1.0); the first turn's messageId sent again; a third turn, whose task is
 * subscribed to and cancelled while it runs. Each waits a bounded time. Tasks the checker started and left running
 * are cancelled at the end, so the agent is left as it was found.
 *
 * <p>Blocking: run it on a plain thread (the CLI's main thread), never on a Vert.x event loop.
 */
public final class Checker {

    private static final String TEXT = "Hello from switchboard check, a contract test: any short answer will do.";
    /** What the bridge asks ListTasks for (SessionDriver): a full page, with the history the lookup reads. */
    private static final int LIST_PAGE_SIZE = 100;
    private static final int LIST_HISTORY = 1000;
    private static final int SEND_TRIES = 4;
    /** How the codec says an event lacks its task's id or context. */
    private static final java.util.regex.Pattern NO_IDS = java.util.regex.Pattern.compile("\\b(id|taskId|contextId): missing");

    private final CheckRequest request;
    private final CheckLimits limits;
    private final A2aAgentClient client;
    private final Map<RowId, RowResult> rows = new EnumMap<>(RowId.class);
    private final List<String> redirects = new ArrayList<>();
    private final List<String> slowHeaders = new ArrayList<>();
    private final List<String> busyWhenIdle = new ArrayList<>();
    private final List<Turn> judgedTurns = new ArrayList<>();
    /** The tasks the checker started, with the last state it saw (null: none seen yet). */
    private final Map<String, TaskState> started = new LinkedHashMap<>();
    private final List<String> cancelled = new ArrayList<>();
    /** The contexts the agent made for the checker's turns. */
    private final Set<String> contexts = new LinkedHashSet<>();
    private int calls;
    /** Sends into an idle context that the agent answered with an event (so not with -32004). */
    private int idleSendsAnswered;
    private AgentEndpoint endpoint;
    private String stopped;
    /** The row that says why the card could not be read. */
    private RowId cardRow = RowId.DISCOVERY_CARD;

    /** After this (3 minutes with --quick, an hour without) no new probe starts. */
    private final long budgetEnds;

    private Checker(Vertx vertx, CheckRequest request) {
        Objects.requireNonNull(vertx, "vertx");
        this.request = Objects.requireNonNull(request, "request");
        this.limits = request.limits();
        this.client = new A2aAgentClient(vertx, limits.headersTimeout());
        this.budgetEnds = System.nanoTime() + (limits.quick() ? Duration.ofMinutes(3) : Duration.ofHours(1)).toNanos();
    }

    /** True (and the rest is skipped) when the check has used up its time: a slow agent gives a bounded run. */
    private boolean outOfTime() {
        if (System.nanoTime() < budgetEnds) {
            return false;
        }
        stop("the check ran out of time (" + (limits.quick() ? "3 minutes with --quick" : "an hour")
                + ") before it got here");
        return true;
    }

    /** Runs every probe and returns the report; never throws for anything the agent does. */
    public static CheckReport run(Vertx vertx, CheckRequest request) {
        Checker checker = new Checker(vertx, request);
        long start = System.nanoTime();
        try {
            checker.probe();
        } catch (CouldNotRun e) {
            checker.cleanUp();
            checker.closeClient();
            return CheckReport.couldNotRun(request, e.getMessage(), Duration.ofNanos(System.nanoTime() - start));
        }
        checker.cleanUp();
        checker.closeClient();
        return new CheckReport(request.url(), request.endpointUrl(), request.dialect(),
                checker.endpoint == null ? null : checker.endpoint.version().label(), checker.results(), null,
                List.copyOf(checker.cancelled), Duration.ofNanos(System.nanoTime() - start));
    }

    /** The agent could not be probed at all (unreachable, credentials refused): exit 2. */
    static final class CouldNotRun extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CouldNotRun(String message) {
            super(message, null, false, false);
        }
    }

    // ---- the probes ----

    private void probe() {
        AgentEndpoint base = new AgentEndpoint(request.endpointUrl(), ProtocolVersion.V1_0, request.callHeaders());
        AgentCard card = card(base);
        if (card == null && request.version() == null) {
            stop("needs the card (see " + cardRow.id() + "); give --version to probe the methods anyway");
            return;
        }
        ProtocolVersion version = request.version() != null ? request.version() : Contract.version(card);
        endpoint = base.withVersion(version);
        if (card != null && Contract.asksHitl(request.dialect(), card)) {
            // kagent-v1 asks for kagent's human-in-the-loop extension on every call when the card lists it
            endpoint = endpoint.withHeader(Hitl.HEADER, Hitl.URI);
        }
        if (card != null && !card.capabilities().streaming()) {
            stop("the card does not declare streaming, so Switchboard never sends this agent a turn (see discovery.streaming)");
            return;
        }
        turns();
    }

    private AgentCard card(AgentEndpoint base) {
        String sent = "GET " + base.cardUrl();
        Outcome<AgentCard> got = call(sent, client.fetchCard(base));
        if (got.failure() instanceof CallFailure.Transport t && t.kind() == CallFailure.TransportKind.CONNECT) {
            throw new CouldNotRun("could not connect to " + base.cardUrl() + ": " + t.detail());
        }
        if (got.failure() instanceof CallFailure.HttpStatus h && (h.status() == 401 || h.status() == 403)) {
            throw new CouldNotRun(sent + " → HTTP " + h.status() + ": the agent rejected the credentials; "
                    + "give them with --token or --header");
        }
        if (got.failure() instanceof CallFailure.Transport t && t.kind() == CallFailure.TransportKind.HEADERS_TIMEOUT) {
            cardRow = RowId.TRANSPORT_HEADERS_IN_30S;
            conclude(RowId.DISCOVERY_CARD, Verdict.SKIP, "the card fetch got no response headers in time "
                    + "(see transport.headers-in-30s)");
            return null;
        }
        if (got.failure() instanceof CallFailure.HttpStatus h && h.status() >= 300 && h.status() < 400) {
            cardRow = RowId.TRANSPORT_NO_REDIRECT;
            conclude(RowId.DISCOVERY_CARD, Verdict.SKIP, "the card fetch was redirected (see transport.no-redirect)");
            return null;
        }
        if (got.failure() != null) {
            conclude(RowId.DISCOVERY_CARD, Verdict.FAIL, sent + " → " + failure(got.failure())
                    + ": the card fetch fails, and a turn is retried, then fails after 15 minutes");
            return null;
        }
        AgentCard card = got.value();
        conclude(RowId.DISCOVERY_CARD, Verdict.PASS, sent + " → " + Evidence.text(card.name()) + ", interfaces: "
                + interfaces(card));
        if (Contract.servesJsonRpc(card)) {
            conclude(RowId.DISCOVERY_JSONRPC_INTERFACE, Verdict.PASS, "JSON-RPC interface(s): " + interfaces(card)
                    + "; Switchboard calls " + request.endpointUrl() + " whatever URL they name");
        } else {
            conclude(RowId.DISCOVERY_JSONRPC_INTERFACE, Verdict.FAIL, "the card lists " + interfaces(card)
                    + ": interfaces that are not JSON-RPC are dropped, and a card with none left fails every turn with \""
                    + Notices.NO_JSONRPC + "\"");
        }
        if (card.capabilities().streaming()) {
            conclude(RowId.DISCOVERY_STREAMING, Verdict.PASS, "capabilities.streaming: true");
        } else {
            conclude(RowId.DISCOVERY_STREAMING, Verdict.FAIL, "capabilities.streaming is not true: Switchboard refuses "
                    + "the agent (\"" + Notices.NO_STREAMING + "\"); the non-streaming send is never used");
        }
        List<String> unspoken = Contract.unspokenRequiredExtensions(request.dialect(), card);
        if (unspoken.isEmpty()) {
            List<String> required = card.capabilities().extensions().stream().filter(e -> e.required())
                    .map(e -> e.uri()).toList();
            conclude(RowId.DISCOVERY_EXTENSIONS, Verdict.PASS, required.isEmpty()
                    ? "no extension is marked required"
                    : "required " + required + ", which " + request.dialect() + " speaks");
        } else {
            conclude(RowId.DISCOVERY_EXTENSIONS, Verdict.FAIL, "the card marks " + unspoken + " required, which "
                    + request.dialect() + " does not speak: the connect fails with \"" + Notices.UNSUPPORTED_EXTENSION + "\"");
        }
        if (request.kagent()) {
            if (Contract.asksHitl(request.dialect(), card)) {
                conclude(RowId.KAGENT_HITL_EXTENSION, Verdict.PASS, "the card lists " + Hitl.URI
                        + ": every call asks for it with A2A-Extensions");
            } else {
                conclude(RowId.KAGENT_HITL_EXTENSION, Verdict.FAIL, "the card's capabilities.extensions do not list "
                        + Hitl.URI + ": Switchboard does not ask for kagent's human-in-the-loop extension, so tool "
                        + "approvals and ask-user questions cannot be shown as forms");
            }
        }
        return card;
    }

    private static String interfaces(AgentCard card) {
        if (card.interfaces().isEmpty()) {
            return "none";
        }
        return card.interfaces().stream()
                .map(i -> i.protocolBinding() + " " + (i.protocolVersion() == null ? "?" : i.protocolVersion()))
                .distinct().collect(Collectors.joining(", "));
    }

    private void turns() {
        // the first turn: no contextId, as a thread's first turn
        String m1 = messageId();
        Turn t1 = finish(open("first turn", m1, null, true));
        if (!delivered(t1)) {
            return;
        }
        conclude(RowId.METHODS_SEND_STREAMING, Verdict.PASS, t1.sent() + " → " + Evidence.events(t1.events()));
        judgedTurns.add(t1);
        judgeEvents(t1);
        if (t1.taskId() == null) {
            stop("needs a turn answered with task events (see replies.task-events and replies.names-task-and-context)");
            return;
        }
        Task read1 = settle(t1, true);
        judgeCreatesContext(t1, read1);
        judgeAnswer(t1, read1);
        if (!settled(t1.taskId())) {
            stop("the first turn's task had not settled after " + duration(limits.turnLimit()) + " (see methods.get-task)");
            return;
        }

        if (outOfTime()) {
            return;
        }
        // the second turn, into the context the agent made
        Turn t2 = null;
        if (t1.contextId() != null) {
            t2 = finish(open("second turn", messageId(), t1.contextId(), true));
            judgeSecondTurn(t1, t2);
        } else {
            conclude(RowId.REPLIES_KEEPS_CONTEXT, Verdict.SKIP, "the first turn named no context (see replies.names-task-and-context)");
        }
        if (outOfTime()) {
            return;
        }
        judgeSessions(t1, t2);

        if (outOfTime()) {
            return;
        }
        // the first turn's messageId again, without a context: what the bridge does after an unknown outcome
        repeat(t1);
        if (outOfTime()) {
            return;
        }
        // a third turn, subscribed to and cancelled while it runs
        live(t1.taskId());
    }

    /** A send that failed before any event concludes its row and stops the probes. */
    private boolean delivered(Turn t) {
        if (!t.events().isEmpty()) {
            return true;
        }
        String what = t.sent() + " → " + ending(t);
        if (t.ending() instanceof Ending.Failed f) {
            CallFailure cause = f.failure();
            if (cause instanceof CallFailure.HttpStatus h && h.status() >= 300 && h.status() < 400) {
                conclude(RowId.METHODS_SEND_STREAMING, Verdict.SKIP, "the send was redirected (see transport.no-redirect)");
                stop("needs a turn (see transport.no-redirect)");
                return false;
            }
            if (cause instanceof CallFailure.Transport tr && tr.kind() == CallFailure.TransportKind.HEADERS_TIMEOUT) {
                conclude(RowId.METHODS_SEND_STREAMING, Verdict.SKIP, "the send got no response headers (see transport.headers-in-30s)");
                stop("needs a turn (see transport.headers-in-30s)");
                return false;
            }
            if (cause instanceof CallFailure.Malformed m && NO_IDS.matcher(m.detail()).find()) {
                // the codec refuses an event without its task's id, as the bridge does
                conclude(RowId.REPLIES_NAMES_TASK_AND_CONTEXT, Verdict.FAIL, what + ": an event that names no task is, as "
                        + "a bare Message, an unknown outcome: the turn is sent again");
                conclude(RowId.METHODS_SEND_STREAMING, Verdict.SKIP, "the stream's events named no task (see "
                        + "replies.names-task-and-context)");
                stop("needs a turn answered with task events that name their task (see replies.names-task-and-context)");
                return false;
            }
            if (cause instanceof CallFailure.HttpStatus h && (h.status() == 401 || h.status() == 403)) {
                throw new CouldNotRun(what + ": the agent rejected the credentials; give them with --token or --header");
            }
            if (cause instanceof CallFailure.RpcError r && r.code() == JsonRpcError.UNSUPPORTED_OPERATION) {
                conclude(RowId.METHODS_SEND_STREAMING, Verdict.SKIP, "every send was refused as busy (see errors.busy-only-when-busy)");
                stop("needs a turn (see errors.busy-only-when-busy)");
                return false;
            }
            String consequence = cause instanceof CallFailure.RpcError r && r.code() == JsonRpcError.METHOD_NOT_FOUND
                    ? ": SendStreamingMessage is not implemented, so nothing works"
                    : ": " + sendConsequence(cause);
            conclude(RowId.METHODS_SEND_STREAMING, Verdict.FAIL, what + consequence);
        } else {
            conclude(RowId.METHODS_SEND_STREAMING, Verdict.FAIL, what
                    + ": a stream that ends without a single event says nothing; the outcome is unknown and the turn is sent again");
        }
        stop("needs a turn (see methods.send-streaming)");
        return false;
    }

    /** What the bridge does with a send that failed before any event (seed: Errors). */
    private static String sendConsequence(CallFailure f) {
        if (f instanceof CallFailure.HttpStatus h && h.status() >= 400 && h.status() < 500 && h.status() != 408
                && h.status() != 429) {
            return "not sent; Switchboard retries, then fails the turn after 15 minutes";
        }
        if (f instanceof CallFailure.RpcError r && r.code() == -31403) {
            return "the identity is refused for this session: the turn fails";
        }
        if (f instanceof CallFailure.RpcError r && r.status() >= 400 && r.status() < 500) {
            return "not sent; Switchboard retries, then fails the turn after 15 minutes";
        }
        return "the outcome is unknown: Switchboard looks the turn up with ListTasks where it can, then sends it again";
    }

    private void judgeEvents(Turn t) {
        List<StreamEvent> events = t.events();
        StreamEvent firstEvent = events.get(0);
        if (firstEvent instanceof Message) {
            conclude(RowId.REPLIES_TASK_EVENTS, Verdict.FAIL, t.sent() + " → " + Evidence.events(events)
                    + ": a bare Message names no task, so the outcome is unknown; Switchboard sends the turn again, and it "
                    + "may run again, until it fails after 15 minutes with \"" + Notices.UNREACHABLE + "\"");
            conclude(RowId.REPLIES_NAMES_TASK_AND_CONTEXT, Verdict.SKIP, "the reply was a bare Message (see replies.task-events)");
            return;
        }
        String known = null;
        for (int i = 0; i < events.size(); i++) {
            StreamEvent e = events.get(i);
            if (e instanceof Message) {
                continue; // after the task is known a bare Message changes nothing (its text is not shown)
            }
            String taskId = taskId(e);
            String contextId = contextId(e);
            String missing = blank(taskId) ? "no task id" : blank(contextId) ? "no contextId"
                    : known != null && !known.equals(taskId) ? "another task (" + id(taskId) + ", not " + id(known) + ")" : null;
            if (missing != null) {
                conclude(RowId.REPLIES_NAMES_TASK_AND_CONTEXT, Verdict.FAIL, t.label() + ": event " + (i + 1) + " of "
                        + events.size() + ", " + Evidence.event(e) + ", names " + missing
                        + ": as for a bare Message, the outcome is unknown and the turn is sent again");
                break;
            }
            known = taskId;
        }
        conclude(RowId.REPLIES_TASK_EVENTS, Verdict.PASS, t.label() + " answered with " + Evidence.events(events));
        conclude(RowId.REPLIES_NAMES_TASK_AND_CONTEXT, Verdict.PASS, "every event named task " + id(t.taskId())
                + " and context " + id(t.contextId()));
    }

    private void judgeCreatesContext(Turn t1, Task read) {
        if (t1.contextId() == null) {
            conclude(RowId.REPLIES_CREATES_CONTEXT, Verdict.SKIP, "no event named a context (see replies.names-task-and-context)");
            return;
        }
        if (read != null && !t1.contextId().equals(read.contextId())) {
            conclude(RowId.REPLIES_CREATES_CONTEXT, Verdict.FAIL, "the first turn's stream named context " + id(t1.contextId())
                    + " but GetTask(" + id(t1.taskId()) + ") says " + id(read.contextId())
                    + ": the next turn is sent into a context the agent does not keep");
            return;
        }
        conclude(RowId.REPLIES_CREATES_CONTEXT, Verdict.PASS, "the first turn, sent with no contextId, got context "
                + id(t1.contextId()) + (read != null ? ", the same in GetTask" : ""));
    }

    /** replies.artifact-text, from the first turn's settled task. */
    private void judgeAnswer(Turn t, Task read) {
        TaskState state = read != null ? read.state() : t.lastState();
        String answer = t.answer();
        if (answer.isEmpty() && read != null) {
            answer = Contract.answerOf(read);
        }
        if (!answer.isEmpty()) {
            conclude(RowId.REPLIES_ARTIFACT_TEXT, Verdict.PASS, "the answer came as artifact text: " + Evidence.text(answer));
            return;
        }
        if (state == TaskState.COMPLETED) {
            String elsewhere = t.textElsewhere();
            conclude(RowId.REPLIES_ARTIFACT_TEXT, Verdict.FAIL, "the first turn's task completed with no artifact text"
                    + (elsewhere.isEmpty() ? "" : " (its text " + Evidence.text(elsewhere)
                            + " came in a status message, history or a bare Message, which is not shown)")
                    + ": Switchboard posts \"" + Notices.NO_OUTPUT + "\"");
            return;
        }
        conclude(RowId.REPLIES_ARTIFACT_TEXT, Verdict.SKIP, "the first turn's task ended " + (state == null ? "in no known state"
                : Evidence.state(state)) + " without an answer, so there was no answer to look at");
    }

    private void judgeSecondTurn(Turn t1, Turn t2) {
        if (t2.events().isEmpty()) {
            if (t2.busyRefusals() >= SEND_TRIES) {
                conclude(RowId.REPLIES_KEEPS_CONTEXT, Verdict.SKIP, "the second turn was refused as busy (see errors.busy-only-when-busy)");
            } else {
                conclude(RowId.REPLIES_KEEPS_CONTEXT, Verdict.FAIL, t2.sent() + " → " + ending(t2)
                        + ": the agent does not take a turn into the context it made");
            }
            return;
        }
        judgedTurns.add(t2);
        judgeEvents(t2);
        if (t2.contextId() == null) {
            conclude(RowId.REPLIES_KEEPS_CONTEXT, Verdict.SKIP, "the second turn's events named no context (see replies.names-task-and-context)");
        } else if (t2.contextId().equals(t1.contextId())) {
            conclude(RowId.REPLIES_KEEPS_CONTEXT, Verdict.PASS, "the second turn, sent with contextId " + id(t1.contextId())
                    + ", stayed in it (task " + id(t2.taskId()) + ")");
        } else {
            conclude(RowId.REPLIES_KEEPS_CONTEXT, Verdict.FAIL, "the second turn, sent with contextId " + id(t1.contextId())
                    + ", came back in context " + id(t2.contextId()) + ": Switchboard posts \"" + Notices.CONTEXT_CHANGED
                    + "\" and keeps the new context");
        }
        if (t2.taskId() != null) {
            settle(t2, false);
        }
    }

    /** sessions.one-task-per-context and methods.list-tasks, once both turns have settled. */
    private void judgeSessions(Turn t1, Turn t2) {
        List<Turn> turns = new ArrayList<>();
        turns.add(t1);
        if (t2 != null && t2.taskId() != null && t2.contextId() != null) {
            turns.add(t2);
        }
        if (endpoint.version() != ProtocolVersion.V1_0) {
            conclude(RowId.METHODS_LIST_TASKS, Verdict.SKIP, "A2A 0.3: an 0.3 agent is never asked ListTasks; its turns of "
                    + "unknown outcome are always sent again");
        } else {
            listTasks(turns);
        }
        if (rows.containsKey(RowId.SESSIONS_ONE_TASK_PER_CONTEXT)) {
            return;
        }
        // each task must have settled: the bridge never sends a turn into a context while one of its tasks runs
        List<String> states = new ArrayList<>();
        for (Turn t : turns) {
            Outcome<Task> read = call(method(A2aMethod.GET_TASK) + "(" + id(t.taskId()) + ")",
                    client.getTask(endpoint, t.taskId(), 0));
            if (read.value() == null) {
                conclude(RowId.SESSIONS_ONE_TASK_PER_CONTEXT, Verdict.SKIP, "GetTask failed, so the tasks could not be "
                        + "looked at (see methods.get-task)");
                return;
            }
            observe(read.value());
            states.add(id(t.taskId()) + " " + Evidence.state(read.value().state()));
            if (!isSettled(read.value().state())) {
                conclude(RowId.SESSIONS_ONE_TASK_PER_CONTEXT, Verdict.FAIL, "task " + id(t.taskId()) + " of context "
                        + id(t.contextId()) + " is " + Evidence.state(read.value().state()) + " after its turn settled: "
                        + "Switchboard sends no new turn into a context while a task of it runs, and replies queue behind it");
                return;
            }
        }
        conclude(RowId.SESSIONS_ONE_TASK_PER_CONTEXT, Verdict.PASS, "each turn's task had settled before the next was "
                + "sent, and none is left running (" + String.join(", ", states) + ")");
    }

    private void listTasks(List<Turn> turns) {
        Map<String, List<Turn>> byContext = new LinkedHashMap<>();
        for (Turn t : turns) {
            // without a context the list would hold every task of the agent, other people's too
            if (t.contextId() != null) {
                byContext.computeIfAbsent(t.contextId(), k -> new ArrayList<>()).add(t);
            }
        }
        if (byContext.isEmpty()) {
            conclude(RowId.METHODS_LIST_TASKS, Verdict.SKIP, "no turn named its context, and ListTasks is asked by context "
                    + "(see replies.names-task-and-context)");
            return;
        }
        List<String> found = new ArrayList<>();
        for (Map.Entry<String, List<Turn>> e : byContext.entrySet()) {
            String contextId = e.getKey();
            List<Task> tasks = new ArrayList<>();
            String pageToken = null;
            String sent = method(A2aMethod.LIST_TASKS) + "(contextId " + id(contextId) + ")";
            for (int page = 0; page < Contract.MAX_LIST_PAGES; page++) {
                Outcome<ListTasksResult> got = call(sent, client.listTasks(endpoint,
                        new ListTasksParams(contextId, null, LIST_PAGE_SIZE, pageToken, LIST_HISTORY, null, null, null)));
                if (got.failure() != null) {
                    String consequence = got.failure() instanceof CallFailure.RpcError r
                            && r.code() == JsonRpcError.METHOD_NOT_FOUND ? " (not implemented)" : "";
                    conclude(RowId.METHODS_LIST_TASKS, Verdict.FAIL, sent + " → " + failure(got.failure()) + consequence
                            + ": before a turn of unknown outcome is sent again into a context, Switchboard looks it up "
                            + "with ListTasks; the lookup is retried, then the turn fails after 15 minutes");
                    return;
                }
                tasks.addAll(got.value().tasks());
                pageToken = got.value().nextPageToken();
                if (pageToken.isEmpty()) {
                    break;
                }
            }
            for (Task t : tasks) {
                if (started.containsKey(t.id())) {
                    observe(t);
                }
            }
            List<Task> running = tasks.stream().filter(t -> !isSettled(t.state())).toList();
            if (!running.isEmpty()) {
                conclude(RowId.SESSIONS_ONE_TASK_PER_CONTEXT, Verdict.FAIL, sent + " after its turns settled → "
                        + running.size() + " task(s) still running (" + running.stream().map(t -> id(t.id()) + " "
                        + Evidence.state(t.state())).collect(Collectors.joining(", ")) + "): Switchboard sends no new "
                        + "turn into a context while a task of it runs, and replies queue behind it");
            }
            for (Turn t : e.getValue()) {
                boolean holds = tasks.stream().anyMatch(task -> Contract.holdsTurn(task, t.messageId()));
                if (!holds) {
                    boolean listed = tasks.stream().anyMatch(task -> task.id().equals(t.taskId()));
                    conclude(RowId.METHODS_LIST_TASKS, Verdict.FAIL, sent + " → " + tasks.size() + " task(s); "
                            + (listed ? "task " + id(t.taskId()) + " is listed but its history does not hold"
                                    : "none is the " + t.label() + "'s task " + id(t.taskId()) + " nor holds")
                            + " messageId " + id(t.messageId()) + ": a list without the turn's message makes it look absent, "
                            + "so Switchboard sends it, and it may run, again");
                    return;
                }
                found.add(t.label());
            }
        }
        conclude(RowId.METHODS_LIST_TASKS, Verdict.PASS, "ListTasks by contextId found the " + String.join(" and ", found)
                + " by their messageIds in the tasks' history");
    }

    private void repeat(Turn t1) {
        Turn again = finish(open("repeat of the first turn", t1.messageId(), null, false));
        if (again.events().isEmpty()) {
            if (again.busyRefusals() >= SEND_TRIES) {
                conclude(RowId.SESSIONS_REPEATED_MESSAGE_ID, Verdict.FAIL, again.sent() + " → -32004 on every try: "
                        + "Switchboard takes it as busy and would send it again for as long as it takes");
            } else {
                conclude(RowId.SESSIONS_REPEATED_MESSAGE_ID, Verdict.FAIL, again.sent() + " → " + ending(again)
                        + ": " + sendConsequence(again.ending() instanceof Ending.Failed f ? f.failure() : null));
            }
            return;
        }
        String taskId = again.taskId();
        if (taskId == null) {
            conclude(RowId.SESSIONS_REPEATED_MESSAGE_ID, Verdict.SKIP, "the repeat's reply named no task (see replies.task-events)");
        } else if (taskId.equals(t1.taskId())) {
            conclude(RowId.SESSIONS_REPEATED_MESSAGE_ID, Verdict.PASS, again.sent() + " → the first turn's task "
                    + id(taskId) + ": the turn ran once");
        } else {
            conclude(RowId.SESSIONS_REPEATED_MESSAGE_ID, Verdict.WARN, again.sent() + " → a new task " + id(taskId)
                    + ": the agent ran the turn twice. Switchboard sends a thread's first turn again with the same "
                    + "messageId after an unknown outcome (a 5xx, a dropped connection), so such a turn may run twice");
        }
    }

    /** A third turn: while its task runs, SubscribeToTask and CancelTask of it. */
    private void live(String fallbackTaskId) {
        Opened opened = open("third turn", messageId(), null, true);
        String taskId = opened.first() == null ? null : taskId(opened.first());
        boolean running = taskId != null && opened.first() != null && !isSettled(stateOf(opened.first()));
        String target = taskId != null ? taskId : fallbackTaskId;
        subscribe(target, running);
        cancel(target, running);
        finish(opened);
    }

    private void subscribe(String taskId, boolean running) {
        String sent = method(A2aMethod.SUBSCRIBE_TO_TASK) + "(" + id(taskId) + ")";
        calls++;
        StreamProbe probe = StreamProbe.open(l -> client.subscribe(endpoint, taskId, l));
        StreamEvent first = probe.awaitFirst(limits.headersTimeout().plus(limits.idleLimit()));
        Ending ending = first != null ? null : probe.await(limits.headersTimeout(), Duration.ofSeconds(1), Duration.ofSeconds(1));
        probe.cut();
        if (first != null) {
            observe(first);
            String other = taskId(first);
            if (other != null && !other.equals(taskId)) {
                conclude(RowId.METHODS_SUBSCRIBE, Verdict.FAIL, sent + " → " + Evidence.event(first) + ", another task");
            } else {
                conclude(RowId.METHODS_SUBSCRIBE, Verdict.PASS, sent + " → " + Evidence.event(first)
                        + (running ? " while it ran" : ""));
            }
            return;
        }
        CallFailure f = ending instanceof Ending.Failed failed ? failed.failure() : null;
        observeFailure(sent, f);
        if (f instanceof CallFailure.RpcError r && r.code() == JsonRpcError.METHOD_NOT_FOUND) {
            conclude(RowId.METHODS_SUBSCRIBE, Verdict.WARN, sent + " → " + failure(f) + " (not implemented): after a "
                    + "dropped stream live text stops; Switchboard reads the task again with GetTask, with a backoff of up "
                    + "to a minute, until it ends");
        } else if (f instanceof CallFailure.RpcError r && r.code() == JsonRpcError.UNSUPPORTED_OPERATION) {
            // A2A answers -32004 to a subscription of a finished task: only a running task tells the method is missing
            Outcome<Task> read = call(method(A2aMethod.GET_TASK) + "(" + id(taskId) + ")", client.getTask(endpoint, taskId, 0));
            if (read.value() != null && read.value().state().isTerminal()) {
                observe(read.value());
                conclude(RowId.METHODS_SUBSCRIBE, Verdict.PASS, sent + " → " + failure(f) + ": the task had already ended ("
                        + Evidence.state(read.value().state()) + "), which A2A answers so; the method is there");
            } else {
                conclude(RowId.METHODS_SUBSCRIBE, Verdict.WARN, sent + " → " + failure(f) + " for a task that had not "
                        + "ended: after a dropped stream live text stops; Switchboard reads the task again with GetTask, "
                        + "with a backoff of up to a minute, until it ends");
            }
        } else if (ending instanceof Ending.Ended) {
            conclude(RowId.METHODS_SUBSCRIBE, Verdict.FAIL, sent + " → a stream that ended without an event: "
                    + "Switchboard reads the task again with GetTask, with a backoff of up to a minute, until it ends");
        } else {
            conclude(RowId.METHODS_SUBSCRIBE, Verdict.FAIL, sent + " → " + (ending == null ? "nothing" : endingText(ending))
                    + ": after a dropped stream Switchboard cannot follow the task live");
        }
    }

    private void cancel(String taskId, boolean running) {
        String sent = method(A2aMethod.CANCEL_TASK) + "(" + id(taskId) + ")";
        Outcome<Task> got = call(sent, client.cancelTask(endpoint, taskId));
        if (got.value() != null) {
            observe(got.value());
            if (got.value().state() == TaskState.CANCELED) {
                cancelled.add(taskId);
            }
            conclude(RowId.METHODS_CANCEL, Verdict.PASS, sent + (running ? " while it ran" : "") + " → "
                    + Evidence.event(got.value()));
            return;
        }
        CallFailure f = got.failure();
        if (f instanceof CallFailure.RpcError r && r.code() == JsonRpcError.TASK_NOT_CANCELABLE) {
            conclude(RowId.METHODS_CANCEL, Verdict.PASS, sent + " → " + failure(f) + ": the task had already ended "
                    + "(not cancelable); the method is there");
            return;
        }
        String not = f instanceof CallFailure.RpcError r && r.code() == JsonRpcError.METHOD_NOT_FOUND ? " (not implemented)" : "";
        conclude(RowId.METHODS_CANCEL, Verdict.FAIL, sent + " → " + failure(f) + not + ": Switchboard retries a cancel a "
                + "few times and reports it as failed; the task keeps running on the agent");
    }

    // ---- turns ----

    /** A send and its first event (null when it ended or failed without one). */
    private record Opened(String label, String messageId, String contextId, String sent, StreamProbe probe,
            StreamEvent first, int busyRefusals) {}

    /** A turn as the checker saw it: the send, its events, how its stream ended. */
    private record Turn(String label, String messageId, String sent, List<StreamEvent> events, Ending ending,
            Duration longestGap, Duration lasted, int busyRefusals) {

        String taskId() {
            return events.stream().map(Checker::taskId).filter(x -> !blank(x)).findFirst().orElse(null);
        }

        String contextId() {
            return events.stream().filter(e -> !(e instanceof Message)).map(Checker::contextId).filter(x -> !blank(x))
                    .findFirst().orElse(null);
        }

        TaskState lastState() {
            TaskState state = null;
            for (StreamEvent e : events) {
                TaskState s = stateOf(e);
                state = s == null ? state : s;
            }
            return state;
        }

        /** The answer as the bridge builds it from these events. */
        String answer() {
            return Contract.answerOf(events);
        }

        /** Text the bridge does not show: in status messages or bare Messages. */
        String textElsewhere() {
            StringBuilder sb = new StringBuilder();
            for (StreamEvent e : events) {
                if (e instanceof Message m) {
                    sb.append(m.text());
                } else if (e instanceof TaskStatusUpdateEvent u && u.status().message() != null) {
                    sb.append(u.status().message().text());
                } else if (e instanceof Task t && t.status().message() != null) {
                    sb.append(t.status().message().text());
                }
            }
            return sb.toString();
        }
    }

    /**
     * Sends one turn as the bridge does (one user message, one text part) and waits for its first event. A -32004
     * before any event is busy: the same message is sent again after a short backoff, a few times.
     *
     * @param idleContext the agent has no task running in this context, so a -32004 breaks errors.busy-only-when-busy
     */
    private Opened open(String label, String messageId, String contextId, boolean idleContext) {
        String sent = method(A2aMethod.SEND_STREAMING_MESSAGE) + "(messageId " + id(messageId) + ", "
                + (contextId == null ? "no contextId" : "contextId " + id(contextId)) + ")";
        SendMessageParams params = SendMessageParams.of(Message.userText(messageId, TEXT, contextId, null, null));
        int busy = 0;
        while (true) {
            calls++;
            StreamProbe probe = StreamProbe.open(l -> client.sendStreaming(endpoint, params, l));
            StreamEvent first = probe.awaitFirst(limits.headersTimeout().plus(limits.idleLimit()));
            if (first != null) {
                observe(first);
                if (idleContext) {
                    idleSendsAnswered++;
                }
                return new Opened(label, messageId, contextId, sent, probe, first, busy);
            }
            Ending ending = probe.await(limits.headersTimeout(), limits.idleLimit(), limits.turnLimit());
            if (ending instanceof Ending.Failed f && f.failure() instanceof CallFailure.RpcError r
                    && r.code() == JsonRpcError.UNSUPPORTED_OPERATION) {
                busy++;
                if (idleContext) {
                    busyWhenIdle.add(label + ": " + sent + " → -32004" + (busy > 1 ? " (try " + busy + ")" : ""));
                }
                if (busy < SEND_TRIES) {
                    pause(Contract.durations().delay(busy, Duration.ofSeconds(1), null).dividedBy(4), r.retryAfter());
                    continue;
                }
            }
            return new Opened(label, messageId, contextId, sent, probe, null, busy);
        }
    }

    private Turn finish(Opened o) {
        Ending ending = o.probe().await(limits.headersTimeout(), limits.idleLimit(), limits.turnLimit());
        Duration lasted = o.probe().lasted();
        if (ending instanceof Ending.Failed f) {
            observeFailure(o.sent(), f.failure());
        }
        List<StreamEvent> events = o.probe().events();
        events.forEach(this::observe);
        return new Turn(o.label(), o.messageId(), o.sent(), events, ending, o.probe().longestGap(), lasted, o.busyRefusals());
    }

    /**
     * Settles a turn as the bridge does: a stream that ended with a full settled Task is settled; any other end is read
     * with GetTask until the task settles (within the turn limit). Concludes replies.ends-with-full-task and, for the
     * first turn, methods.get-task. Returns the task GetTask read, or null.
     */
    private Task settle(Turn t, boolean first) {
        StreamEvent last = t.events().get(t.events().size() - 1);
        boolean full = t.ending() instanceof Ending.Ended && Contract.settles(last);
        if (full) {
            conclude(RowId.REPLIES_ENDS_WITH_FULL_TASK, Verdict.PASS, t.label() + ": the stream ended with "
                    + Evidence.event(last));
        } else if (t.ending() instanceof Ending.Cut cut && cut.idle() && limits.quick()) {
            conclude(RowId.REPLIES_ENDS_WITH_FULL_TASK, Verdict.SKIP, t.label() + ": the checker cut the stream after "
                    + duration(cut.silent()) + " without an event (--quick), so its end was not seen");
        } else {
            String how;
            if (t.ending() instanceof Ending.Failed f) {
                how = "broke after " + t.events().size() + " event(s) (" + failure(f.failure()) + ")";
            } else if (t.ending() instanceof Ending.Cut c) {
                how = "was silent for " + duration(c.silent()) + " and was cut";
            } else {
                String kind = last instanceof TaskStatusUpdateEvent ? "a status update"
                        : last instanceof Task ? "an unsettled Task" : last instanceof Message ? "a bare Message" : "an artifact update";
                how = "ended with " + kind + " (" + Evidence.event(last) + "), not a full Task in a terminal, "
                        + "input-required or auth-required state";
            }
            conclude(RowId.REPLIES_ENDS_WITH_FULL_TASK, Verdict.WARN, t.label() + ": the stream " + how
                    + ": Switchboard treats it as dropped and settles such turns with GetTask after a second");
        }
        String sent = method(A2aMethod.GET_TASK) + "(" + id(t.taskId()) + ")";
        long deadline = System.nanoTime() + limits.turnLimit().toNanos();
        Duration wait = Duration.ofMillis(100);
        while (true) {
            Outcome<Task> read = call(sent, client.getTask(endpoint, t.taskId(), null));
            if (read.failure() != null) {
                if (first) {
                    String not = read.failure() instanceof CallFailure.RpcError r && r.code() == JsonRpcError.METHOD_NOT_FOUND
                            ? " (not implemented)" : "";
                    conclude(RowId.METHODS_GET_TASK, Verdict.FAIL, sent + " → " + failure(read.failure()) + not
                            + ": a turn whose stream does not end with a full Task cannot finish, and a task cannot be "
                            + "followed after a dropped stream or a restart");
                }
                return null;
            }
            Task task = read.value();
            observe(task);
            if (!t.taskId().equals(task.id())) {
                if (first) {
                    conclude(RowId.METHODS_GET_TASK, Verdict.FAIL, sent + " → " + Evidence.event(task) + ", another task");
                }
                return null;
            }
            if (isSettled(task.state()) || System.nanoTime() + wait.toNanos() > deadline) {
                if (first) {
                    conclude(RowId.METHODS_GET_TASK, isSettled(task.state()) ? Verdict.PASS : Verdict.FAIL, sent + " → "
                            + Evidence.event(task) + (isSettled(task.state()) ? ""
                            : ", still not settled after " + duration(limits.turnLimit())));
                }
                return task;
            }
            pause(wait, null);
            wait = wait.multipliedBy(2).compareTo(Duration.ofSeconds(1)) > 0 ? Duration.ofSeconds(1) : wait.multipliedBy(2);
        }
    }

    // ---- observations and results ----

    private record Outcome<T>(T value, CallFailure failure) {}

    private <T> Outcome<T> call(String sent, Future<T> future) {
        calls++;
        try {
            T value = future.toCompletionStage().toCompletableFuture()
                    .get(limits.callTimeout().toMillis(), TimeUnit.MILLISECONDS);
            return new Outcome<>(value, null);
        } catch (ExecutionException e) {
            CallFailure f = e.getCause() instanceof CallException ce ? ce.failure()
                    : new CallFailure.Malformed(String.valueOf(e.getCause().getMessage()));
            observeFailure(sent, f);
            return new Outcome<>(null, f);
        } catch (TimeoutException e) {
            return new Outcome<>(null, new CallFailure.Transport(CallFailure.TransportKind.LOST,
                    "no complete reply within " + duration(limits.callTimeout())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CouldNotRun("interrupted");
        }
    }

    private void observeFailure(String sent, CallFailure f) {
        if (f instanceof CallFailure.HttpStatus h && h.status() >= 300 && h.status() < 400) {
            redirects.add(sent + " → HTTP " + h.status());
        } else if (f instanceof CallFailure.Transport t && t.kind() == CallFailure.TransportKind.HEADERS_TIMEOUT) {
            slowHeaders.add(sent);
        }
    }

    /** Keeps the last state seen of each task the checker started. */
    private void observe(StreamEvent e) {
        String contextId = contextId(e);
        if (!blank(contextId) && !(e instanceof Message)) {
            contexts.add(contextId);
        }
        String taskId = taskId(e);
        TaskState state = stateOf(e);
        if (blank(taskId)) {
            return;
        }
        if (e instanceof Task || e instanceof TaskStatusUpdateEvent || !started.containsKey(taskId)) {
            started.merge(taskId, state == null ? TaskState.UNSPECIFIED : state, (a, b) -> state == null ? a : b);
        }
    }

    private boolean settled(String taskId) {
        TaskState s = started.get(taskId);
        return s != null && isSettled(s);
    }

    private static boolean isSettled(TaskState s) {
        return s != null && (s.isTerminal() || s.isInterrupted());
    }

    /** Cancels every task the checker started that it did not see end (paused ones too): the agent is left as found. */
    private void cleanUp() {
        if (endpoint == null) {
            return;
        }
        if (endpoint.version() == ProtocolVersion.V1_0) {
            // the contexts the checker made: a task the agent started there on its own is the checker's doing too
            for (String contextId : contexts) {
                Outcome<ListTasksResult> listed = call("ListTasks", client.listTasks(endpoint,
                        new ListTasksParams(contextId, null, LIST_PAGE_SIZE, null, 0, null, null, null)));
                if (listed.value() != null) {
                    listed.value().tasks().stream().filter(t -> !t.state().isTerminal())
                            .forEach(t -> started.putIfAbsent(t.id(), t.state()));
                }
            }
        }
        for (Map.Entry<String, TaskState> e : new ArrayList<>(started.entrySet())) {
            if (e.getValue() != null && e.getValue().isTerminal()) {
                continue;
            }
            String taskId = e.getKey();
            Outcome<Task> read = call("GetTask", client.getTask(endpoint, taskId, 0));
            if (read.value() != null && read.value().state().isTerminal()) {
                continue;
            }
            Outcome<Task> c = call("CancelTask", client.cancelTask(endpoint, taskId));
            if (c.value() != null && !cancelled.contains(taskId)) {
                cancelled.add(taskId);
            }
        }
    }

    private void closeClient() {
        try {
            client.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            // nothing to do: the process (or the test's Vert.x) closes the rest
        }
    }

    /**
     * Records a row's verdict; a row seen on several turns keeps the worst (FAIL, then WARN, then PASS, then SKIP), so
     * a second turn that breaks a row the first kept is not hidden, and the first reason of a rank stays.
     */
    private void conclude(RowId row, Verdict verdict, String reason) {
        RowResult before = rows.get(row);
        if (before == null || rank(verdict) > rank(before.verdict())) {
            rows.put(row, new RowResult(row, verdict, reason));
        }
    }

    private static int rank(Verdict v) {
        return switch (v) {
            case SKIP -> 0;
            case PASS -> 1;
            case WARN -> 2;
            case FAIL -> 3;
        };
    }

    private void stop(String reason) {
        if (stopped == null) {
            stopped = reason;
        }
    }

    private List<RowResult> results() {
        if (redirects.isEmpty()) {
            conclude(RowId.TRANSPORT_NO_REDIRECT, Verdict.PASS, "none of the " + calls + " calls was answered with a 3xx");
        } else {
            conclude(RowId.TRANSPORT_NO_REDIRECT, Verdict.FAIL, String.join("; ", redirects)
                    + ": Switchboard follows no redirect, a 3xx is a failed call; answer at " + request.endpointUrl()
                    + " itself");
        }
        if (slowHeaders.isEmpty()) {
            conclude(RowId.TRANSPORT_HEADERS_IN_30S, Verdict.PASS, "all " + calls + " calls got their response headers within "
                    + duration(limits.headersTimeout()));
        } else {
            conclude(RowId.TRANSPORT_HEADERS_IN_30S, Verdict.FAIL, String.join("; ", slowHeaders) + ": no response headers "
                    + "within " + duration(limits.headersTimeout()) + "; Switchboard counts the call as a lost connection");
        }
        if (!busyWhenIdle.isEmpty()) {
            conclude(RowId.ERRORS_BUSY_ONLY_WHEN_BUSY, Verdict.FAIL, String.join("; ", busyWhenIdle) + ", with no task "
                    + "of the agent's running: Switchboard sends the same message again after a backoff, for as long as it "
                    + "takes, and tells the thread after 2 minutes; do not use -32004 for anything but busy");
        } else if (idleSendsAnswered > 0) {
            conclude(RowId.ERRORS_BUSY_ONLY_WHEN_BUSY, Verdict.PASS, "all " + idleSendsAnswered + " send(s) into an "
                    + "idle context were answered, none with -32004");
        }
        judgeSilence();
        Map<RowId, RowResult> out = new EnumMap<>(rows);
        for (RowId row : RowId.values()) {
            if (row == RowId.KAGENT_HITL_EXTENSION && !request.kagent()) {
                continue;
            }
            out.putIfAbsent(row, new RowResult(row, Verdict.SKIP, stopped == null ? "not reached" : stopped));
        }
        return List.copyOf(out.values());
    }

    /** replies.event-every-5-minutes: judged only from what was observed. */
    private void judgeSilence() {
        Duration limit = limits.silenceLimit();
        if (limits.quick()) {
            conclude(RowId.REPLIES_EVENT_EVERY_5_MINUTES, Verdict.SKIP, "skipped with --quick (it needs a task that runs "
                    + "longer than " + duration(limit) + ")");
            return;
        }
        if (judgedTurns.isEmpty()) {
            return;
        }
        for (Turn t : judgedTurns) {
            if (t.longestGap().compareTo(limit) >= 0) {
                conclude(RowId.REPLIES_EVENT_EVERY_5_MINUTES, Verdict.FAIL, "the " + t.label() + "'s stream went "
                        + duration(t.longestGap()) + " without an event: after " + duration(limit) + " Switchboard cuts the "
                        + "stream and follows the task again with GetTask and SubscribeToTask");
                return;
            }
        }
        Turn longest = judgedTurns.stream().max((a, b) -> a.lasted().compareTo(b.lasted())).orElseThrow();
        if (longest.lasted().compareTo(limit) >= 0) {
            conclude(RowId.REPLIES_EVENT_EVERY_5_MINUTES, Verdict.PASS, "the " + longest.label() + "'s stream lasted "
                    + duration(longest.lasted()) + " with at most " + duration(longest.longestGap()) + " between events");
        } else {
            conclude(RowId.REPLIES_EVENT_EVERY_5_MINUTES, Verdict.SKIP, "every task finished within "
                    + duration(longest.lasted()) + ", before " + duration(limit) + ", so no long task was seen; a long tool "
                    + "call must still send an event at least every " + duration(limit));
        }
    }

    // ---- small helpers ----

    private String method(A2aMethod m) {
        ProtocolVersion v = endpoint == null ? ProtocolVersion.V1_0 : endpoint.version();
        return m.nameIn(v).orElse(m.v10Name());
    }

    private static String ending(Turn t) {
        return t.events().isEmpty() && t.ending() instanceof Ending.Ended ? "a stream with no event" : endingText(t.ending());
    }

    private static String endingText(Ending e) {
        if (e instanceof Ending.Failed f) {
            return failure(f.failure());
        }
        if (e instanceof Ending.Cut c) {
            return (c.idle() ? "no event for " : "still open after ") + duration(c.silent()) + ", cut by the checker";
        }
        return "the stream ended";
    }

    static String taskId(StreamEvent e) {
        if (e instanceof Task t) {
            return t.id();
        } else if (e instanceof TaskStatusUpdateEvent u) {
            return u.taskId();
        } else if (e instanceof TaskArtifactUpdateEvent a) {
            return a.taskId();
        }
        return null;
    }

    static String contextId(StreamEvent e) {
        if (e instanceof Task t) {
            return t.contextId();
        } else if (e instanceof TaskStatusUpdateEvent u) {
            return u.contextId();
        } else if (e instanceof TaskArtifactUpdateEvent a) {
            return a.contextId();
        } else if (e instanceof Message m) {
            return m.contextId();
        }
        return null;
    }

    static TaskState stateOf(StreamEvent e) {
        if (e instanceof Task t) {
            return t.state();
        } else if (e instanceof TaskStatusUpdateEvent u) {
            return u.status().state();
        }
        return null;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static String messageId() {
        return "sb-check-" + UUID.randomUUID();
    }

    /** Waits before a retry; an agent's Retry-After is honoured up to 2 seconds (a check must stay short). */
    private static void pause(Duration backoff, Duration retryAfter) {
        Duration d = backoff;
        if (retryAfter != null && retryAfter.compareTo(d) > 0) {
            d = retryAfter.compareTo(Duration.ofSeconds(2)) > 0 ? Duration.ofSeconds(2) : retryAfter;
        }
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CouldNotRun("interrupted");
        }
    }
}
