package dev.switchboard.protocol.vectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.a2a.spec.APIKeySecurityScheme;
import io.a2a.spec.AgentCapabilities;
import io.a2a.spec.AgentCard;
import io.a2a.spec.AgentExtension;
import io.a2a.spec.AgentInterface;
import io.a2a.spec.AgentProvider;
import io.a2a.spec.AgentSkill;
import io.a2a.spec.Artifact;
import io.a2a.spec.AuthenticatedExtendedCardNotConfiguredError;
import io.a2a.spec.AuthorizationCodeOAuthFlow;
import io.a2a.spec.CancelTaskRequest;
import io.a2a.spec.CancelTaskResponse;
import io.a2a.spec.ContentTypeNotSupportedError;
import io.a2a.spec.DataPart;
import io.a2a.spec.FilePart;
import io.a2a.spec.FileWithBytes;
import io.a2a.spec.FileWithUri;
import io.a2a.spec.GetTaskRequest;
import io.a2a.spec.GetTaskResponse;
import io.a2a.spec.HTTPAuthSecurityScheme;
import io.a2a.spec.InternalError;
import io.a2a.spec.InvalidAgentResponseError;
import io.a2a.spec.InvalidParamsError;
import io.a2a.spec.InvalidRequestError;
import io.a2a.spec.JSONParseError;
import io.a2a.spec.JSONRPCError;
import io.a2a.spec.JSONRPCErrorResponse;
import io.a2a.spec.JSONRPCMessage;
import io.a2a.spec.Message;
import io.a2a.spec.MessageSendConfiguration;
import io.a2a.spec.MessageSendParams;
import io.a2a.spec.MethodNotFoundError;
import io.a2a.spec.OAuth2SecurityScheme;
import io.a2a.spec.OAuthFlows;
import io.a2a.spec.Part;
import io.a2a.spec.PushNotificationConfig;
import io.a2a.spec.PushNotificationNotSupportedError;
import io.a2a.spec.SecurityScheme;
import io.a2a.spec.SendMessageRequest;
import io.a2a.spec.SendMessageResponse;
import io.a2a.spec.SendStreamingMessageRequest;
import io.a2a.spec.SendStreamingMessageResponse;
import io.a2a.spec.SetTaskPushNotificationConfigRequest;
import io.a2a.spec.StreamingEventKind;
import io.a2a.spec.Task;
import io.a2a.spec.TaskArtifactUpdateEvent;
import io.a2a.spec.TaskIdParams;
import io.a2a.spec.TaskNotCancelableError;
import io.a2a.spec.TaskNotFoundError;
import io.a2a.spec.TaskPushNotificationConfig;
import io.a2a.spec.TaskQueryParams;
import io.a2a.spec.TaskResubscriptionRequest;
import io.a2a.spec.TaskState;
import io.a2a.spec.TaskStatus;
import io.a2a.spec.TaskStatusUpdateEvent;
import io.a2a.spec.TextPart;
import io.a2a.spec.TransportProtocol;
import io.a2a.spec.UnsupportedOperationError;
import io.a2a.util.Utils;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes A2A 0.3 JSON test vectors produced by the a2a-java 0.3.3.Final SDK's own types and its own serializer
 * ({@link Utils#OBJECT_MAPPER}) into {@code protocol/src/test/resources/vectors/java-0.3/}.
 *
 * <p>Each file is {@code {"source":"java-0.3","version":"0.3","type":T,"description":…,"json":…}}; for
 * {@code sendResult}/{@code streamEvent} {@code json} is the JSON-RPC {@code result} member, for {@code error} the
 * {@code error} member, for {@code request}/{@code response} the whole envelope (all taken from the SDK-serialised
 * envelope objects).
 *
 * <p>Not a test: run by hand (see interop/README.md). Optional argument: the output directory. Without it the class
 * finds {@code protocol/src/test/resources/vectors/java-0.3} from the working directory (repository root or the
 * {@code protocol} module). Existing {@code *.json} files there are replaced.
 */
public final class JavaSdkVectorGenerator {

    private static final String SOURCE = "java-0.3";
    private static final String VERSION = "0.3";

    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 1, 15, 10, 0, 0, 0, ZoneOffset.UTC);
    private static final OffsetDateTime T1 = OffsetDateTime.of(2026, 1, 15, 10, 0, 1, 123_000_000, ZoneOffset.UTC);
    private static final OffsetDateTime T2 = OffsetDateTime.of(2026, 1, 15, 10, 0, 2, 123_456_000, ZoneOffset.UTC);
    private static final OffsetDateTime T3_OFFSET =
            OffsetDateTime.of(2026, 1, 15, 12, 0, 3, 0, ZoneOffset.ofHours(2));

    private static final String TASK_ID = "task-java-1";
    private static final String CONTEXT_ID = "ctx-java-1";

    /** Plain mapper used only to parse the SDK's output and pretty-print the wrapper file; never for A2A types. */
    private final ObjectMapper plain = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final Map<String, ObjectNode> vectors = new TreeMap<>();

    private JavaSdkVectorGenerator() {
    }

    public static void main(String[] args) throws IOException {
        Path out = args.length > 0 ? Path.of(args[0]) : defaultOutputDir();
        JavaSdkVectorGenerator generator = new JavaSdkVectorGenerator();
        generator.generate();
        generator.write(out);
        System.out.println(SOURCE + ": " + generator.vectors.size() + " vectors -> " + out.toAbsolutePath().normalize());
    }

    private static Path defaultOutputDir() {
        Path rel = Path.of("src", "test", "resources", "vectors", "java-0.3");
        if (Files.isDirectory(Path.of("protocol", "src"))) {
            return Path.of("protocol").resolve(rel);
        }
        return rel;
    }

    // ------------------------------------------------------------------------------------------------------------
    // Building blocks
    // ------------------------------------------------------------------------------------------------------------

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static Message userMessageRich() {
        List<Part<?>> parts = List.of(
                new TextPart("What is in these files?"),
                new TextPart("with metadata", map("lang", "en")),
                new FilePart(new FileWithBytes("text/plain", "note.txt", b64("attached bytes"))),
                new FilePart(new FileWithUri("image/jpeg", "photo.jpg", "https://example.com/in/photo.jpg"),
                        map("source", "camera")),
                new DataPart(map("query", "weather", "days", 3, "nested", map("list", List.of(1, 2, 3), "flag", true))));
        return new Message.Builder()
                .role(Message.Role.USER)
                .parts(parts)
                .messageId("msg-user-1")
                .contextId(CONTEXT_ID)
                .taskId(TASK_ID)
                .referenceTaskIds(List.of("task-earlier-1"))
                .metadata(map("clientTrace", "abc-123"))
                .extensions(List.of("https://example.com/ext/data/v1"))
                .build();
    }

    private static Message userMessageMinimal() {
        return new Message.Builder()
                .role(Message.Role.USER)
                .parts(new TextPart("hello"))
                .messageId("msg-user-min")
                .build();
    }

    private static Message agentMessage(String id, String text) {
        return new Message.Builder()
                .role(Message.Role.AGENT)
                .parts(new TextPart(text))
                .messageId(id)
                .contextId(CONTEXT_ID)
                .taskId(TASK_ID)
                .build();
    }

    private static Artifact reportArtifact() {
        return new Artifact.Builder()
                .artifactId("report")
                .name("Report")
                .description("A report")
                .parts(new TextPart("Part one. "), new TextPart("Part two."))
                .metadata(map("chunks", 2))
                .build();
    }

    private static Artifact filesArtifact() {
        return new Artifact.Builder()
                .artifactId("files")
                .name("Files")
                .parts(new FilePart(new FileWithBytes("image/png", "tiny.png",
                                Base64.getEncoder().encodeToString(new byte[] {(byte) 0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a, (byte) 0xff, (byte) 0xfe})),
                                map("width", 1, "height", 1)),
                        new FilePart(new FileWithUri("application/pdf", "doc.pdf", "https://example.com/files/doc.pdf")))
                .build();
    }

    private static Artifact dataArtifact() {
        return new Artifact.Builder()
                .artifactId("data")
                .name("Data")
                .parts(new DataPart(map("k", 1, "none", null, "list", List.of("a", "b")), map("schema", "v1")))
                .extensions(List.of("https://example.com/ext/data/v1"))
                .build();
    }

    private static Task completedTask() {
        Message user = new Message.Builder(userMessageMinimal()).contextId(CONTEXT_ID).taskId(TASK_ID).build();
        return new Task.Builder()
                .id(TASK_ID)
                .contextId(CONTEXT_ID)
                .status(new TaskStatus(TaskState.COMPLETED, agentMessage("msg-agent-done", "All done."), T2))
                .artifacts(List.of(reportArtifact(), filesArtifact(), dataArtifact()))
                .history(user, agentMessage("msg-agent-working", "Working on it"))
                .metadata(map("origin", "vector-generator", "priority", 2))
                .build();
    }

    private static Task taskIn(TaskState state, Message statusMessage, OffsetDateTime ts) {
        return new Task.Builder()
                .id(TASK_ID)
                .contextId(CONTEXT_ID)
                .status(new TaskStatus(state, statusMessage, ts))
                .history(new Message.Builder(userMessageMinimal()).contextId(CONTEXT_ID).taskId(TASK_ID).build())
                .build();
    }

    private static TaskStatusUpdateEvent statusEvent(TaskState state, Message message, OffsetDateTime ts, boolean isFinal,
            Map<String, Object> metadata) {
        TaskStatusUpdateEvent.Builder b = new TaskStatusUpdateEvent.Builder()
                .taskId(TASK_ID)
                .contextId(CONTEXT_ID)
                .status(new TaskStatus(state, message, ts))
                .isFinal(isFinal);
        if (metadata != null) {
            b.metadata(metadata);
        }
        return b.build();
    }

    private static TaskArtifactUpdateEvent artifactEvent(Artifact artifact, Boolean append, Boolean lastChunk) {
        return new TaskArtifactUpdateEvent.Builder()
                .taskId(TASK_ID)
                .contextId(CONTEXT_ID)
                .artifact(artifact)
                .append(append)
                .lastChunk(lastChunk)
                .build();
    }

    private static AgentCard agentCard() {
        Map<String, SecurityScheme> schemes = new LinkedHashMap<>();
        schemes.put("apiKey", new APIKeySecurityScheme.Builder().in("header").name("X-API-Key").description("API key").build());
        schemes.put("bearer", new HTTPAuthSecurityScheme.Builder().scheme("bearer").bearerFormat("JWT").build());
        schemes.put("oauth", new OAuth2SecurityScheme.Builder()
                .flows(new OAuthFlows.Builder()
                        .authorizationCode(new AuthorizationCodeOAuthFlow("https://auth.example.com/authorize", null,
                                Map.of("read", "Read access"), "https://auth.example.com/token"))
                        .build())
                .build());
        return new AgentCard.Builder()
                .name("Java Vector Agent")
                .description("Card built with the a2a-java 0.3.3 SDK types")
                .url("https://agent.example.com/a2a/jsonrpc")
                .preferredTransport(TransportProtocol.JSONRPC.asString())
                .additionalInterfaces(List.of(
                        new AgentInterface(TransportProtocol.JSONRPC.asString(), "https://agent.example.com/a2a/jsonrpc"),
                        new AgentInterface(TransportProtocol.HTTP_JSON.asString(), "https://agent.example.com/a2a/rest")))
                .provider(new AgentProvider("Switchboard", "https://example.com"))
                .version("2.1.0")
                .documentationUrl("https://example.com/docs")
                .iconUrl("https://example.com/icon.png")
                .capabilities(new AgentCapabilities.Builder()
                        .streaming(true)
                        .pushNotifications(false)
                        .stateTransitionHistory(false)
                        .extensions(List.of(new AgentExtension.Builder()
                                .uri("https://example.com/ext/data/v1")
                                .description("Data extension")
                                .required(false)
                                .params(map("level", 1))
                                .build()))
                        .build())
                .defaultInputModes(List.of("text/plain", "application/json"))
                .defaultOutputModes(List.of("text/plain", "application/json", "image/png"))
                .skills(List.of(
                        new AgentSkill.Builder()
                                .id("report").name("Report").description("Writes a report")
                                .tags(List.of("report", "demo")).examples(List.of("write a report"))
                                .inputModes(List.of("text/plain")).outputModes(List.of("text/plain", "application/json"))
                                .build(),
                        new AgentSkill.Builder()
                                .id("echo").name("Echo").description("Echoes input").tags(List.of("echo"))
                                .build()))
                .supportsAuthenticatedExtendedCard(false)
                .securitySchemes(schemes)
                .security(List.of(Map.of("apiKey", List.of()), Map.of("oauth", List.of("read"))))
                .protocolVersion("0.3.0")
                .build();
    }

    private static AgentCard minimalCard() {
        return new AgentCard.Builder()
                .name("Minimal")
                .description("Only the required fields")
                .url("https://agent.example.com/a2a")
                .version("1.0.0")
                .capabilities(new AgentCapabilities.Builder().build())
                .defaultInputModes(List.of("text/plain"))
                .defaultOutputModes(List.of("text/plain"))
                .skills(List.of())
                .build();
    }

    // ------------------------------------------------------------------------------------------------------------
    // Vector production
    // ------------------------------------------------------------------------------------------------------------

    /** Serialises with the SDK's own mapper and parses the result back into a tree for embedding. */
    private JsonNode sdk(Object value) throws IOException {
        String json = Utils.OBJECT_MAPPER.writeValueAsString(value);
        return plain.readTree(json);
    }

    private void vec(String file, String type, String description, JsonNode json) {
        if (json == null || json.isMissingNode()) {
            throw new IllegalStateException("no JSON for " + file);
        }
        if (vectors.containsKey(file)) {
            throw new IllegalStateException("duplicate vector " + file);
        }
        ObjectNode node = plain.createObjectNode();
        node.put("source", SOURCE);
        node.put("version", VERSION);
        node.put("type", type);
        node.put("description", description);
        node.set("json", json);
        vectors.put(file, node);
    }

    private void generate() throws IOException {
        // --- messages ---
        vec("message-user-rich.json", "message",
                "User Message with text (plain and with metadata), file bytes, file uri (with part metadata) and data parts, "
                        + "contextId, taskId, referenceTaskIds, metadata, extensions.",
                sdk(userMessageRich()));
        vec("message-user-minimal.json", "message", "User Message with only role, one text part and messageId.",
                sdk(userMessageMinimal()));
        vec("message-agent.json", "message", "Agent Message with contextId and taskId.",
                sdk(agentMessage("msg-agent-1", "Hello from the agent")));

        // --- tasks ---
        vec("task-completed-full.json", "task",
                "Completed Task: status message and timestamp (millis precision input), three artifacts (text, file bytes/uri, "
                        + "data with part metadata), history, metadata.",
                sdk(completedTask()));
        // TaskStatus always carries a timestamp: the SDK fills OffsetDateTime.now() when none is given, so one is set
        // explicitly here to keep the output deterministic.
        vec("task-submitted-minimal.json", "task",
                "Submitted Task with no history/artifacts set (the SDK prints empty arrays); timestamp with no fraction digits.",
                sdk(new Task.Builder().id("task-min").contextId("ctx-min").status(new TaskStatus(TaskState.SUBMITTED, null, T0)).build()));
        vec("task-input-required.json", "task", "Input-required Task whose status message is the agent's question.",
                sdk(taskIn(TaskState.INPUT_REQUIRED, agentMessage("msg-agent-question", "Which city do you mean?"), T1)));
        vec("task-failed.json", "task", "Failed Task with a status message.",
                sdk(taskIn(TaskState.FAILED, agentMessage("msg-agent-failure", "Upstream service unavailable."), T1)));
        vec("task-canceled.json", "task", "Canceled Task; status timestamp with microseconds.",
                sdk(taskIn(TaskState.CANCELED, null, T2)));
        vec("task-auth-required-offset-timestamp.json", "task",
                "Auth-required Task; status timestamp built with a +02:00 offset (shows how the SDK prints non-UTC times).",
                sdk(taskIn(TaskState.AUTH_REQUIRED, null, T3_OFFSET)));
        vec("task-rejected.json", "task", "Rejected Task.", sdk(taskIn(TaskState.REJECTED, null, T1)));
        vec("task-unknown-state.json", "task", "Task in state unknown.", sdk(taskIn(TaskState.UNKNOWN, null, T0)));

        // --- send results (result member of SendMessageResponse) ---
        JsonNode sendTask = sdk(new SendMessageResponse(1, completedTask()));
        vec("send-result-task.json", "sendResult", "message/send result: a completed Task (from SendMessageResponse).",
                sendTask.get("result"));
        vec("response-send-task.json", "response", "Whole SendMessageResponse envelope (integer id) with a Task result.", sendTask);
        JsonNode sendMsg = sdk(new SendMessageResponse("req-7", agentMessage("msg-agent-reply", "Direct reply")));
        vec("send-result-message.json", "sendResult", "message/send result: a direct agent Message.", sendMsg.get("result"));
        vec("response-send-message.json", "response", "Whole SendMessageResponse envelope (string id) with a Message result.", sendMsg);
        vec("send-result-task-input-required.json", "sendResult", "message/send result: an input-required Task.",
                sdk(new SendMessageResponse(2, taskIn(TaskState.INPUT_REQUIRED,
                        agentMessage("msg-agent-question", "Which city do you mean?"), T1))).get("result"));

        // --- stream events (result member of SendStreamingMessageResponse) ---
        List<Object[]> stream = new ArrayList<>();
        stream.add(new Object[] {"task", "First stream event: the submitted Task with history.",
            taskIn(TaskState.SUBMITTED, null, T0)});
        stream.add(new Object[] {"status-working", "Working status update with an agent message and event metadata (final false).",
            statusEvent(TaskState.WORKING, agentMessage("msg-agent-working", "Working on it"), T1, false, map("step", 1))});
        stream.add(new Object[] {"artifact-first-chunk", "Artifact update: first chunk (append false, lastChunk false).",
            artifactEvent(new Artifact.Builder().artifactId("report").name("Report").parts(new TextPart("Part one. ")).build(),
                    false, false)});
        stream.add(new Object[] {"artifact-append", "Artifact update: appended chunk (append true, lastChunk false).",
            artifactEvent(new Artifact.Builder().artifactId("report").parts(new TextPart("Part two. ")).build(), true, false)});
        stream.add(new Object[] {"artifact-append-last-chunk", "Artifact update: last appended chunk (append true, lastChunk true).",
            artifactEvent(new Artifact.Builder().artifactId("report").parts(new TextPart("Part three.")).build(), true, true)});
        stream.add(new Object[] {"artifact-files", "Artifact update: file bytes and file uri parts; append/lastChunk not set (null).",
            artifactEvent(filesArtifact(), null, null)});
        stream.add(new Object[] {"artifact-data", "Artifact update: data part with part metadata, artifact extensions.",
            artifactEvent(dataArtifact(), false, true)});
        stream.add(new Object[] {"status-completed", "Completed status update, final true, with an agent message.",
            statusEvent(TaskState.COMPLETED, agentMessage("msg-agent-done", "All done."), T2, true, null)});
        for (int i = 0; i < stream.size(); i++) {
            Object[] e = stream.get(i);
            JsonNode env = sdk(new SendStreamingMessageResponse(5, (StreamingEventKind) e[2]));
            vec(String.format("stream-%02d-%s.json", i + 1, e[0]), "streamEvent", (String) e[1], env.get("result"));
            if (i == 1) {
                vec("response-stream-event-envelope.json", "response",
                        "Whole SendStreamingMessageResponse envelope of one SSE event.", env);
            }
        }
        vec("stream-status-input-required.json", "streamEvent", "Input-required status update (final true as the SDK's agents emit it).",
                sdk(new SendStreamingMessageResponse(6, statusEvent(TaskState.INPUT_REQUIRED,
                        agentMessage("msg-agent-question", "Which city do you mean?"), T1, true, null))).get("result"));
        vec("stream-status-failed.json", "streamEvent", "Failed status update with status message and metadata, final true.",
                sdk(new SendStreamingMessageResponse(6, statusEvent(TaskState.FAILED,
                        agentMessage("msg-agent-failure", "Upstream service unavailable."), T2, true,
                        map("errorCode", "UPSTREAM_DOWN")))).get("result"));
        vec("stream-message.json", "streamEvent", "A Message as a stream event.",
                sdk(new SendStreamingMessageResponse(6, agentMessage("msg-agent-reply", "Direct reply"))).get("result"));

        // --- params ---
        MessageSendParams fullParams = new MessageSendParams.Builder()
                .message(userMessageRich())
                .configuration(new MessageSendConfiguration.Builder()
                        .acceptedOutputModes(List.of("text/plain", "application/json"))
                        .historyLength(10)
                        .blocking(true)
                        .pushNotificationConfig(new PushNotificationConfig.Builder()
                                .url("https://client.example.com/hook").token("tok-1").id("cfg-1").build())
                        .build())
                .metadata(map("requestLevel", true))
                .build();
        vec("send-params-full.json", "sendParams",
                "MessageSendParams with rich message, configuration (acceptedOutputModes, historyLength, blocking true, "
                        + "pushNotificationConfig) and metadata.",
                sdk(fullParams));
        MessageSendParams minimalParams = new MessageSendParams.Builder().message(userMessageMinimal()).build();
        vec("send-params-minimal.json", "sendParams", "MessageSendParams with only a minimal message.", sdk(minimalParams));
        MessageSendParams nonBlocking = new MessageSendParams.Builder()
                .message(userMessageMinimal())
                .configuration(new MessageSendConfiguration.Builder().blocking(false).build())
                .build();
        vec("send-params-non-blocking.json", "sendParams", "MessageSendParams with configuration.blocking false only.",
                sdk(nonBlocking));
        vec("task-query-id-only.json", "taskQuery",
                "TaskQueryParams built with only an id (historyLength is a primitive int, so the SDK prints 0).", sdk(new TaskQueryParams(TASK_ID)));
        vec("task-query-history-length.json", "taskQuery", "TaskQueryParams with historyLength 5.",
                sdk(new TaskQueryParams(TASK_ID, 5)));
        vec("task-id-params-metadata.json", "taskQuery", "TaskIdParams (tasks/cancel, tasks/resubscribe) with metadata.",
                sdk(new TaskIdParams(TASK_ID, map("reason", "user request"))));

        // --- cards ---
        vec("card-full.json", "card",
                "0.3 AgentCard: url, preferredTransport, additionalInterfaces, provider, capabilities with an extension, "
                        + "security schemes (apiKey, http bearer, oauth2), security, skills, protocolVersion 0.3.0.",
                sdk(agentCard()));
        vec("card-minimal.json", "card", "0.3 AgentCard with only the required fields (SDK defaults filled in).",
                sdk(minimalCard()));

        // --- errors (error member of JSONRPCErrorResponse) ---
        List<Object[]> errors = new ArrayList<>();
        errors.add(new Object[] {"task-not-found", new TaskNotFoundError()});
        errors.add(new Object[] {"task-not-cancelable", new TaskNotCancelableError()});
        errors.add(new Object[] {"push-not-supported", new PushNotificationNotSupportedError()});
        errors.add(new Object[] {"unsupported-operation", new UnsupportedOperationError()});
        errors.add(new Object[] {"content-type-not-supported", new ContentTypeNotSupportedError(null, null, null)});
        errors.add(new Object[] {"invalid-agent-response", new InvalidAgentResponseError(null, null, null)});
        errors.add(new Object[] {"extended-card-not-configured", new AuthenticatedExtendedCardNotConfiguredError()});
        errors.add(new Object[] {"parse-error", new JSONParseError()});
        errors.add(new Object[] {"invalid-request", new InvalidRequestError()});
        errors.add(new Object[] {"method-not-found", new MethodNotFoundError()});
        errors.add(new Object[] {"invalid-params", new InvalidParamsError()});
        errors.add(new Object[] {"internal-error", new InternalError("Something broke")});
        errors.add(new Object[] {"task-not-found-with-data",
            new TaskNotFoundError(TaskNotFoundError.DEFAULT_CODE, "Task not found: " + TASK_ID, map("taskId", TASK_ID))});
        errors.add(new Object[] {"custom-code", new JSONRPCError(-32099, "Custom server error", null)});
        for (Object[] e : errors) {
            JSONRPCError err = (JSONRPCError) e[1];
            JsonNode env = sdk(new JSONRPCErrorResponse("err-" + e[0], err));
            vec("error-" + e[0] + ".json", "error",
                    "Error from " + err.getClass().getSimpleName() + " (SDK default code/message unless stated), via JSONRPCErrorResponse.",
                    env.get("error"));
        }
        vec("response-error-task-not-found.json", "response", "Whole JSONRPCErrorResponse for TaskNotFoundError (string id).",
                sdk(new JSONRPCErrorResponse("req-9", new TaskNotFoundError())));
        vec("response-error-null-id.json", "response", "Whole JSONRPCErrorResponse built without an id (parse error): the SDK omits id instead of printing null.",
                sdk(new JSONRPCErrorResponse(new JSONParseError())));

        // --- requests ---
        vec("request-message-send.json", "request", "SendMessageRequest envelope (message/send, integer id).",
                sdk(new SendMessageRequest.Builder().jsonrpc(JSONRPCMessage.JSONRPC_VERSION).method(SendMessageRequest.METHOD).id(1).params(fullParams).build()));
        vec("request-message-send-string-id.json", "request", "SendMessageRequest envelope with a string id and minimal params.",
                sdk(new SendMessageRequest.Builder().jsonrpc(JSONRPCMessage.JSONRPC_VERSION).method(SendMessageRequest.METHOD).id("req-abc").params(minimalParams).build()));
        vec("request-message-stream.json", "request", "SendStreamingMessageRequest envelope (message/stream).",
                sdk(new SendStreamingMessageRequest.Builder().jsonrpc(JSONRPCMessage.JSONRPC_VERSION).method(SendStreamingMessageRequest.METHOD).id(2).params(minimalParams).build()));
        vec("request-tasks-get.json", "request", "GetTaskRequest envelope (tasks/get) with historyLength.",
                sdk(new GetTaskRequest.Builder().jsonrpc(JSONRPCMessage.JSONRPC_VERSION).method(GetTaskRequest.METHOD).id(3).params(new TaskQueryParams(TASK_ID, 2)).build()));
        vec("request-tasks-cancel.json", "request", "CancelTaskRequest envelope (tasks/cancel).",
                sdk(new CancelTaskRequest.Builder().jsonrpc(JSONRPCMessage.JSONRPC_VERSION).method(CancelTaskRequest.METHOD).id(4).params(new TaskIdParams(TASK_ID)).build()));
        vec("request-tasks-resubscribe.json", "request", "TaskResubscriptionRequest envelope (tasks/resubscribe).",
                sdk(new TaskResubscriptionRequest.Builder().jsonrpc(JSONRPCMessage.JSONRPC_VERSION).method(TaskResubscriptionRequest.METHOD).id(5).params(new TaskIdParams(TASK_ID)).build()));
        vec("request-push-config-set.json", "request", "SetTaskPushNotificationConfigRequest envelope (tasks/pushNotificationConfig/set).",
                sdk(new SetTaskPushNotificationConfigRequest.Builder().jsonrpc(JSONRPCMessage.JSONRPC_VERSION).method(SetTaskPushNotificationConfigRequest.METHOD).id(6).params(new TaskPushNotificationConfig(TASK_ID,
                        new PushNotificationConfig.Builder().id("cfg-1").url("https://client.example.com/hook").token("tok-1").build()))
                        .build()));

        // --- responses ---
        vec("response-tasks-get.json", "response", "GetTaskResponse envelope with a bare Task result.",
                sdk(new GetTaskResponse(3, completedTask())));
        vec("response-tasks-cancel.json", "response", "CancelTaskResponse envelope with a canceled Task.",
                sdk(new CancelTaskResponse(4, taskIn(TaskState.CANCELED, null, T2))));
    }

    private void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (p.getFileName().toString().endsWith(".json")) {
                    Files.delete(p);
                }
            }
        }
        for (Map.Entry<String, ObjectNode> e : vectors.entrySet()) {
            Files.writeString(dir.resolve(e.getKey()), plain.writeValueAsString(e.getValue()) + "\n", StandardCharsets.UTF_8);
        }
    }
}
