package dev.switchboard.testkit.slack;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.Set;

/**
 * The Block Kit limits Slack enforces on a message's blocks, as {@code chat.postMessage} and {@code chat.update}
 * answer {@code invalid_blocks}: at most 50 blocks; unique block and action ids; a section's or context's text at
 * most 3,000 characters, a context at most 10 elements; an actions block at most 25 elements; a button's label at
 * most 75 characters and its value 2,000; a select at most 100 options, checkboxes 10, an option's label 75 and its
 * value 150.
 */
final class BlockKit {

    private BlockKit() {}

    /** What is wrong with {@code blocks} (JSON text), or null when Slack would take them (or there are none). */
    static String problem(String blocks) {
        if (blocks == null || blocks.isBlank()) {
            return null;
        }
        JsonArray all;
        try {
            all = new JsonArray(blocks);
        } catch (RuntimeException e) {
            return "blocks are not a JSON array";
        }
        if (all.size() > 50) {
            return "more than 50 blocks";
        }
        Set<String> blockIds = new HashSet<>();
        Set<String> actionIds = new HashSet<>();
        for (int i = 0; i < all.size(); i++) {
            if (!(all.getValue(i) instanceof JsonObject b) || b.getString("type") == null) {
                return "block " + i + " has no type";
            }
            String id = b.getString("block_id");
            if (id != null && !blockIds.add(id)) {
                return "duplicate block_id " + id;
            }
            String where = "block " + i + " (" + b.getString("type") + ")";
            switch (b.getString("type")) {
                case "section" -> {
                    if (text(b.getJsonObject("text")) > 3000) {
                        return where + ": text longer than 3000";
                    }
                }
                case "context" -> {
                    JsonArray elements = b.getJsonArray("elements", new JsonArray());
                    if (elements.isEmpty() || elements.size() > 10) {
                        return where + ": 1 to 10 elements";
                    }
                    for (Object e : elements) {
                        if (e instanceof JsonObject o && text(o) > 3000) {
                            return where + ": text longer than 3000";
                        }
                    }
                }
                case "actions", "input" -> {
                    JsonArray elements = b.getString("type").equals("input")
                            ? new JsonArray().add(b.getJsonObject("element", new JsonObject()))
                            : b.getJsonArray("elements", new JsonArray());
                    if (elements.isEmpty() || elements.size() > 25) {
                        return where + ": 1 to 25 elements";
                    }
                    for (Object e : elements) {
                        String p = element(e instanceof JsonObject o ? o : new JsonObject(), actionIds);
                        if (p != null) {
                            return where + ": " + p;
                        }
                    }
                }
                case "context_actions" -> {
                    JsonArray elements = b.getJsonArray("elements", new JsonArray());
                    if (elements.isEmpty() || elements.size() > 5) {
                        return where + ": 1 to 5 elements";
                    }
                    for (Object e : elements) {
                        JsonObject o = e instanceof JsonObject j ? j : new JsonObject();
                        if ("feedback_buttons".equals(o.getString("type")) && (!button(o.getJsonObject("positive_button"))
                                || !button(o.getJsonObject("negative_button")))) {
                            return where + ": feedback_buttons needs positive_button and negative_button with text and value";
                        }
                        String actionId = o.getString("action_id");
                        if (actionId != null && !actionIds.add(actionId)) {
                            return where + ": duplicate action_id " + actionId;
                        }
                    }
                }
                default -> {
                }
            }
        }
        return null;
    }

    private static boolean button(JsonObject b) {
        return b != null && b.getJsonObject("text") != null && b.getString("value") != null
                && b.getString("value").length() <= 2000;
    }

    private static String element(JsonObject e, Set<String> actionIds) {
        String actionId = e.getString("action_id");
        if (actionId != null && !actionIds.add(actionId)) {
            return "duplicate action_id " + actionId;
        }
        if ("button".equals(e.getString("type"))) {
            if (text(e.getJsonObject("text")) > 75) {
                return "a button's text is longer than 75";
            }
            if (e.getString("value", "").length() > 2000) {
                return "a button's value is longer than 2000";
            }
        }
        JsonArray options = e.getJsonArray("options");
        if (options != null) {
            int max = "checkboxes".equals(e.getString("type")) || "radio_buttons".equals(e.getString("type")) ? 10 : 100;
            if (options.isEmpty() || options.size() > max) {
                return e.getString("type") + ": 1 to " + max + " options";
            }
            for (Object o : options) {
                JsonObject opt = o instanceof JsonObject j ? j : new JsonObject();
                if (text(opt.getJsonObject("text")) > 75 || opt.getString("value", "").length() > 150) {
                    return "an option's text is longer than 75 or its value longer than 150";
                }
            }
        }
        return null;
    }

    private static int text(JsonObject textObject) {
        return textObject == null ? 0 : textObject.getString("text", "").length();
    }
}
