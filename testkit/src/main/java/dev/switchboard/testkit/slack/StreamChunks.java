package dev.switchboard.testkit.slack;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Set;

/**
 * The {@code chunks} of Slack's stream methods as Slack checks them: a JSON array of objects typed
 * {@code markdown_text} (with {@code text}), {@code task_update} (with {@code id}, {@code title} and a {@code status}
 * of pending, in_progress, complete or error; {@code details} and {@code output} at most 256 characters),
 * {@code plan_update} (with {@code title}) or {@code blocks}.
 */
final class StreamChunks {

    static final Set<String> STATUSES = Set.of("pending", "in_progress", "complete", "error");
    private static final int TASK_TEXT_LIMIT = 256;

    private StreamChunks() {}

    /** The chunks, parsed; null when there are none. Throws {@link IllegalArgumentException} naming what is wrong. */
    static JsonArray parse(String chunks) {
        if (chunks == null || chunks.isBlank()) {
            return null;
        }
        JsonArray all;
        try {
            all = new JsonArray(chunks);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("chunks are not a JSON array");
        }
        for (Object o : all) {
            if (!(o instanceof JsonObject c)) {
                throw new IllegalArgumentException("a chunk is not an object");
            }
            String type = c.getValue("type") instanceof String s ? s : "";
            switch (type) {
                case "markdown_text" -> require(c, "text");
                case "plan_update" -> require(c, "title");
                case "blocks" -> {
                    if (!(c.getValue("blocks") instanceof JsonArray)) {
                        throw new IllegalArgumentException("a blocks chunk has no blocks");
                    }
                }
                case "task_update" -> {
                    require(c, "id");
                    require(c, "title");
                    if (!STATUSES.contains(c.getValue("status") instanceof String s ? s : "")) {
                        throw new IllegalArgumentException("a task_update's status is not one of " + STATUSES);
                    }
                    for (String f : new String[] {"details", "output"}) {
                        if (c.getValue(f) instanceof String s && s.length() > TASK_TEXT_LIMIT) {
                            throw new IllegalArgumentException("a task_update's " + f + " is over 256 characters");
                        }
                    }
                }
                default -> throw new IllegalArgumentException("unknown chunk type '" + type + "'");
            }
        }
        return all;
    }

    private static void require(JsonObject chunk, String field) {
        if (!(chunk.getValue(field) instanceof String s) || s.isBlank()) {
            throw new IllegalArgumentException("a " + chunk.getString("type") + " chunk has no " + field);
        }
    }
}
