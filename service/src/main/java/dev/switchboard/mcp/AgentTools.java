package dev.switchboard.mcp;

import dev.switchboard.auth.Caller;
import dev.switchboard.protocol.model.AgentSkill;
import dev.switchboard.registry.AgentRegistry;
import dev.switchboard.registry.RegisteredAgent;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Mono;

/**
 * The door's tools: {@code list_agents}, {@code send_message}, {@code get_task}, {@code cancel_task}, and (with
 * {@code toolsPerSkill}) one per agent skill. Each reads its arguments with {@link ToolArguments}, asks
 * {@link McpAccess} about the agent, and answers a problem as an {@code isError} result naming it: a model reads those
 * and can correct itself, where a protocol error would end its turn.
 */
final class AgentTools {

    static final String LIST_AGENTS = "list_agents";
    static final String SEND_MESSAGE = "send_message";
    static final String GET_TASK = "get_task";
    static final String CANCEL_TASK = "cancel_task";
    /** The metrics' tool label of every per-skill tool. */
    static final String SKILL = "skill";
    /** Agents {@code list_agents} answers at most. */
    static final int MAX_LISTED = 500;

    private final AgentRegistry registry;
    private final McpAccess access;
    private final AgentCalls calls;
    private final McpSettings settings;
    private final McpMetrics metrics;
    private final Elicitations elicitations;

    AgentTools(AgentRegistry registry, McpAccess access, AgentCalls calls, McpSettings settings, McpMetrics metrics) {
        this.registry = registry;
        this.access = access;
        this.calls = calls;
        this.settings = settings;
        this.metrics = metrics;
        this.elicitations = new Elicitations(settings.maxTextBytes());
    }

    List<McpServerFeatures.AsyncToolSpecification> fixed() {
        return List.of(
                spec(LIST_AGENTS, "List the agents you can call, with their skills. Filter by skill tag.",
                        schema(Map.of("tags", Map.of("type", "array", "items", Map.of("type", "string"),
                                "description", "Only agents with a skill carrying any of these tags")), List.of()),
                        this::listAgents),
                spec(SEND_MESSAGE, "Send a message to an agent and get its answer. To answer an agent's question "
                                + "(state input-required), send again with the taskId and contextId it gave.",
                        schema(sendProperties(true), List.of("agent", "text")), (x, r) -> send(SEND_MESSAGE, x, r, null)),
                spec(GET_TASK, "Read a task an agent is working on: its state and answer so far.",
                        schema(taskProperties(), List.of("agent", "taskId")), this::getTask),
                spec(CANCEL_TASK, "Ask an agent to cancel a task.",
                        schema(taskProperties(), List.of("agent", "taskId")), this::cancelTask));
    }

    /** The per-skill tools for the agents now registered (names per {@link SkillToolNames}). */
    Map<String, McpServerFeatures.AsyncToolSpecification> perSkill() {
        Map<String, McpServerFeatures.AsyncToolSpecification> out = new LinkedHashMap<>();
        for (RegisteredAgent a : registry.list(List.of(), Integer.MAX_VALUE)) {
            for (AgentSkill s : a.skills()) {
                String name = SkillToolNames.of(a.id(), s.id());
                if (name == null || out.containsKey(name)) {
                    continue;
                }
                String description = (s.name() == null ? s.id() : s.name()) + " (skill of agent " + a.id() + ")"
                        + (s.description() == null || s.description().isBlank() ? "" : ": " + s.description());
                String agentId = a.id();
                out.put(name, spec(name, description, schema(sendProperties(false), List.of("text")),
                        (x, r) -> send(SKILL, x, r, agentId)));
            }
        }
        return out;
    }

    /** The agent a per-skill tool calls, or null for the fixed tools: what the tools list filter asks. */
    static String agentOf(String toolName) {
        int dot = toolName.indexOf('.');
        return dot < 0 ? null : toolName.substring(0, dot);
    }

    // ---- the tools ----

    private Mono<McpSchema.CallToolResult> listAgents(McpAsyncServerExchange x, McpSchema.CallToolRequest r) {
        long started = System.nanoTime();
        Caller caller = caller(x);
        List<String> tags;
        try {
            tags = new ToolArguments(LIST_AGENTS, r.arguments(), Set.of("tags")).optionalStrings("tags", 50);
        } catch (ToolArguments.Bad e) {
            return bad(LIST_AGENTS, null, e, started);
        }
        List<Map<String, Object>> agents = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (RegisteredAgent a : registry.list(tags, Integer.MAX_VALUE)) {
            if (agents.size() >= MAX_LISTED || !access.mayUse(caller, a)) {
                continue;
            }
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("id", a.id());
            one.put("name", a.name());
            one.put("description", a.description() == null ? "" : a.description());
            List<Map<String, Object>> skills = new ArrayList<>();
            for (AgentSkill s : a.skills()) {
                Map<String, Object> skill = new LinkedHashMap<>();
                skill.put("id", s.id());
                skill.put("name", s.name());
                skill.put("description", s.description() == null ? "" : s.description());
                skill.put("tags", s.tags());
                skills.add(skill);
            }
            one.put("skills", skills);
            agents.add(one);
            text.append("- ").append(a.id()).append(": ").append(a.name());
            if (a.description() != null && !a.description().isBlank()) {
                text.append(" — ").append(a.description());
            }
            if (!a.skills().isEmpty()) {
                text.append(" (skills: ").append(String.join(", ", a.skills().stream().map(AgentSkill::id).toList())).append(')');
            }
            text.append('\n');
        }
        metrics.record(LIST_AGENTS, null, McpMetrics.Outcome.OK, System.nanoTime() - started);
        return Mono.just(McpSchema.CallToolResult.builder()
                .addTextContent(agents.isEmpty() ? "No agents" + (tags.isEmpty() ? "." : " with tags " + tags + ".")
                        : text.toString().strip())
                .structuredContent(Map.of("agents", agents))
                .build());
    }

    private Mono<McpSchema.CallToolResult> send(String label, McpAsyncServerExchange x, McpSchema.CallToolRequest r,
            String fixedAgent) {
        long started = System.nanoTime();
        String agentId = fixedAgent;
        String text;
        String contextId;
        String taskId;
        Long timeout;
        try {
            ToolArguments args = new ToolArguments(r.name(), r.arguments(), fixedAgent == null
                    ? Set.of("agent", "text", "contextId", "taskId", "timeoutSeconds")
                    : Set.of("text", "contextId", "taskId", "timeoutSeconds"));
            if (agentId == null) {
                agentId = args.required("agent");
            }
            text = args.requiredText("text", settings.maxTextBytes());
            contextId = args.optionalId("contextId");
            taskId = args.optionalId("taskId");
            timeout = args.optionalSeconds("timeoutSeconds", 86_400);
        } catch (ToolArguments.Bad e) {
            return bad(label, agentId, e, started);
        }
        RegisteredAgent agent = agentFor(caller(x), agentId);
        if (agent == null) {
            return notFound(label, agentId, started);
        }
        String refused = access.refusal(caller(x), agent, "message/send");
        if (refused != null) {
            return forbidden(label, agent, refused, started);
        }
        Object token = r.meta() == null ? null : r.meta().get("progressToken");
        AgentCalls.Progress progress = token == null ? AgentCalls.Progress.NONE : progress(x, token);
        Caller who = caller(x);
        // a question of the agent is asked of the person when the client can elicit; their answer goes to the task
        return calls.send(label, who, agent, AgentCalls.message(text, contextId, taskId), timeout, progress)
                .flatMap(result -> elicitations.follow(x, result, (answer, asked) -> calls.send(label, who, agent,
                        AgentCalls.message(answer, (String) asked.get("contextId"), (String) asked.get("taskId")),
                        timeout, progress), 0));
    }

    private Mono<McpSchema.CallToolResult> getTask(McpAsyncServerExchange x, McpSchema.CallToolRequest r) {
        return taskCall(GET_TASK, x, r, false);
    }

    private Mono<McpSchema.CallToolResult> cancelTask(McpAsyncServerExchange x, McpSchema.CallToolRequest r) {
        return taskCall(CANCEL_TASK, x, r, true);
    }

    private Mono<McpSchema.CallToolResult> taskCall(String tool, McpAsyncServerExchange x, McpSchema.CallToolRequest r,
            boolean cancel) {
        long started = System.nanoTime();
        String agentId = null;
        String taskId;
        try {
            ToolArguments args = new ToolArguments(tool, r.arguments(), Set.of("agent", "taskId"));
            agentId = args.required("agent");
            taskId = args.optionalId("taskId");
            if (taskId == null) {
                args.required("taskId");
            }
        } catch (ToolArguments.Bad e) {
            return bad(tool, agentId, e, started);
        }
        RegisteredAgent agent = agentFor(caller(x), agentId);
        if (agent == null) {
            return notFound(tool, agentId, started);
        }
        String refused = access.refusal(caller(x), agent, cancel ? "tasks/cancel" : "tasks/get");
        if (refused != null) {
            return forbidden(tool, agent, refused, started);
        }
        return cancel ? calls.cancelTask(tool, caller(x), agent, taskId) : calls.getTask(tool, caller(x), agent, taskId);
    }

    // ---- helpers ----

    /** The agent, when it is registered and the caller may use it; null otherwise (the two look the same). */
    private RegisteredAgent agentFor(Caller caller, String agentId) {
        RegisteredAgent a = registry.find(agentId).orElse(null);
        return a != null && caller != null && access.mayUse(caller, a) ? a : null;
    }

    private static AgentCalls.Progress progress(McpAsyncServerExchange x, Object token) {
        AtomicLong n = new AtomicLong();
        return chunk -> x.progressNotification(new McpSchema.ProgressNotification(token, (double) n.incrementAndGet(),
                null, chunk.length() > 65_536 ? chunk.substring(0, 65_536) : chunk)).subscribe(v -> {}, e -> {});
    }

    private Mono<McpSchema.CallToolResult> bad(String tool, String agentId, ToolArguments.Bad e, long started) {
        metrics.record(tool, agentId == null || registry.find(agentId).isEmpty() ? null : agentId,
                McpMetrics.Outcome.BAD_ARGUMENTS, System.nanoTime() - started);
        return Mono.just(AgentCalls.error(null, e.getMessage()));
    }

    private Mono<McpSchema.CallToolResult> notFound(String tool, String agentId, long started) {
        metrics.record(tool, null, McpMetrics.Outcome.NOT_FOUND, System.nanoTime() - started);
        String shown = agentId.length() > 80 ? agentId.substring(0, 80) + "…" : agentId;
        return Mono.just(AgentCalls.error(null, "agent not found: " + shown + " (list_agents names the agents you can call)"));
    }

    private Mono<McpSchema.CallToolResult> forbidden(String tool, RegisteredAgent agent, String refusal, long started) {
        metrics.record(tool, agent.id(), McpMetrics.Outcome.FORBIDDEN, System.nanoTime() - started);
        return Mono.just(AgentCalls.error(null, refusal));
    }

    static Caller caller(McpAsyncServerExchange x) {
        return x.transportContext() == null ? null : (Caller) x.transportContext().get(StreamableHttp.CALLER);
    }

    private static McpServerFeatures.AsyncToolSpecification spec(String name, String description,
            Map<String, Object> schema,
            java.util.function.BiFunction<McpAsyncServerExchange, McpSchema.CallToolRequest, Mono<McpSchema.CallToolResult>> handler) {
        return McpServerFeatures.AsyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder().name(name).description(description).inputSchema(schema).build())
                .callHandler(handler)
                .build();
    }

    private static Map<String, Object> schema(Map<String, Object> properties, List<String> required) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("type", "object");
        s.put("properties", properties);
        s.put("required", required);
        s.put("additionalProperties", false);
        return s;
    }

    private Map<String, Object> sendProperties(boolean withAgent) {
        Map<String, Object> p = new LinkedHashMap<>();
        if (withAgent) {
            p.put("agent", Map.of("type", "string", "description", "The agent's id (list_agents names them)"));
        }
        p.put("text", Map.of("type", "string", "description", "The message", "maxLength", settings.maxTextBytes()));
        p.put("contextId", Map.of("type", "string", "description", "Continue this conversation (from an earlier answer)"));
        p.put("taskId", Map.of("type", "string", "description", "Answer this task's question (state input-required)"));
        p.put("timeoutSeconds", Map.of("type", "integer", "minimum", 1,
                "description", "Give up waiting after this long (the agent's own limit still applies)"));
        return p;
    }

    private static Map<String, Object> taskProperties() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("agent", Map.of("type", "string", "description", "The agent's id"));
        p.put("taskId", Map.of("type", "string", "description", "The task's id (from send_message)"));
        return p;
    }
}
