package dev.switchboard.protocol.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.Json;
import dev.switchboard.protocol.model.Artifact;
import dev.switchboard.protocol.model.ListTasksParams;
import dev.switchboard.protocol.model.ListTasksResult;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.Role;
import dev.switchboard.protocol.model.SendMessageConfiguration;
import dev.switchboard.protocol.model.SendMessageParams;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskArtifactUpdateEvent;
import dev.switchboard.protocol.model.TaskQueryParams;
import dev.switchboard.protocol.model.TaskState;
import dev.switchboard.protocol.model.TaskStatus;
import dev.switchboard.protocol.model.TaskStatusUpdateEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/** Fully populated model values, one of each type, for round-trip tests. */
final class Samples {

    static final Instant AT = Instant.parse("2026-03-15T10:15:00.123Z");

    private Samples() {}

    static ObjectNode meta(String key, String value) {
        ObjectNode o = Json.object();
        o.put(key, value);
        return o;
    }

    /** Parts that survive both versions unchanged (no mediaType on text/data: 0.3 cannot carry it). */
    static List<Part> portableParts() {
        return List.of(
                new Part.Text("hello", null, null, meta("lang", "en")),
                new Part.Raw("bytes".getBytes(StandardCharsets.UTF_8), "text/plain", "a.txt", null),
                new Part.Url("https://example.com/a.pdf", "application/pdf", "a.pdf", meta("k", "v")),
                new Part.Data(Json.parse("{\"k\":1,\"list\":[1,2]}"), null, null, null));
    }

    static Message message() {
        return new Message("m-1", Role.USER, portableParts(), "c-1", "t-1", meta("trace", "x"),
                List.of("https://ext/v1"), List.of("t-0"));
    }

    static Artifact artifact() {
        return new Artifact("a-1", "answer", "the answer", portableParts(), meta("n", "1"), List.of("https://ext/v1"));
    }

    static Task task() {
        Message question = new Message("m-2", Role.AGENT, List.of(Part.text("which?")), "c-1", "t-1", null, null, null);
        return new Task("t-1", "c-1", new TaskStatus(TaskState.INPUT_REQUIRED, question, AT),
                List.of(artifact()), List.of(message()), meta("origin", "test"));
    }

    static TaskStatusUpdateEvent statusUpdate(boolean isFinal) {
        return new TaskStatusUpdateEvent("t-1", "c-1", new TaskStatus(TaskState.COMPLETED, null, AT), isFinal, meta("s", "1"));
    }

    static TaskArtifactUpdateEvent artifactUpdate() {
        return new TaskArtifactUpdateEvent("t-1", "c-1", artifact(), true, true, meta("chunk", "2"));
    }

    static SendMessageParams sendParams(String tenant) {
        ObjectNode push = (ObjectNode) Json.parse(
                "{\"url\":\"https://client/hook\",\"token\":\"tok\",\"authentication\":{\"scheme\":\"Bearer\",\"credentials\":\"abc\"}}");
        return new SendMessageParams(message(),
                new SendMessageConfiguration(List.of("text/plain"), 5, Boolean.TRUE, push, 30L),
                meta("req", "1"), tenant);
    }

    static TaskQueryParams taskQuery(String tenant) {
        return new TaskQueryParams("t-1", 3, meta("why", "test"), tenant);
    }

    static ListTasksParams listTasksParams() {
        return new ListTasksParams("c-1", TaskState.WORKING, 10, "cursor", 2, AT, Boolean.TRUE, "acme");
    }

    static ListTasksResult listTasksResult() {
        return new ListTasksResult(List.of(task()), "next", 10, 42);
    }
}
