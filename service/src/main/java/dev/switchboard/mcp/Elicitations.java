package dev.switchboard.mcp;

import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * An agent's question asked of the person through the MCP client, when the client can (it declared the
 * {@code elicitation} capability): a {@code send_message} whose answer is a task waiting for input
 * ({@code input-required}) sends {@code elicitation/create} with the question and a one-field form ({@code answer});
 * an accepted answer is sent to the task ({@code taskId}, {@code contextId}) and its outcome is the tool's result
 * — or, if the agent asks again, the next question is elicited, up to {@link #MAX_QUESTIONS}. A client that cannot
 * elicit, a person who declines or cancels, an empty answer, or a failed elicitation: the question itself is the
 * tool's result, to be answered later with {@code send_message} and its taskId, as without elicitation.
 */
final class Elicitations {

    private static final Logger LOG = LoggerFactory.getLogger(Elicitations.class);
    /** Questions one tool call asks at most: an agent that asks forever ends as an input-required result. */
    static final int MAX_QUESTIONS = 5;
    private static final Map<String, Object> ANSWER_FORM = Map.of("type", "object",
            "properties", Map.of("answer", Map.of("type", "string", "title", "Your answer",
                    "description", "Sent to the agent as your reply to its question")),
            "required", List.of("answer"));

    private final int maxTextBytes;

    /** @param maxTextBytes the largest answer sent on (as a send's text, {@code mcp.maxTextBytes}) */
    Elicitations(int maxTextBytes) {
        this.maxTextBytes = maxTextBytes;
    }

    static boolean canElicit(McpAsyncServerExchange x) {
        McpSchema.ClientCapabilities c = x == null ? null : x.getClientCapabilities();
        return c != null && c.elicitation() != null;
    }

    /**
     * Follows {@code result}: while it is a question and the client can elicit, asks it and sends the answer with
     * {@code answer} (text, taskId, contextId → the next result).
     */
    Mono<McpSchema.CallToolResult> follow(McpAsyncServerExchange x, McpSchema.CallToolResult result,
            BiFunction<String, Map<String, Object>, Mono<McpSchema.CallToolResult>> answer, int asked) {
        Map<String, Object> s = structured(result);
        if (asked >= MAX_QUESTIONS || !canElicit(x) || s == null || !"input-required".equals(s.get("state"))
                || !(s.get("taskId") instanceof String)) {
            return Mono.just(result);
        }
        String question = s.get("text") instanceof String t && !t.isBlank() ? t : "The agent asks for input.";
        McpSchema.ElicitRequest request = McpSchema.ElicitRequest.builder()
                .message(s.get("agent") + " asks: " + question)
                .requestedSchema(ANSWER_FORM)
                .build();
        return x.createElicitation(request).flatMap(reply -> {
            Object given = reply.content() == null ? null : reply.content().get("answer");
            if (reply.action() != McpSchema.ElicitResult.Action.ACCEPT || !(given instanceof String text)
                    || text.isBlank() || text.getBytes(StandardCharsets.UTF_8).length > maxTextBytes) {
                return Mono.just(result);
            }
            return answer.apply(text, s).flatMap(next -> follow(x, next, answer, asked + 1));
        }).onErrorResume(e -> {
            LOG.debug("MCP elicitation failed ({}); the question is the tool's result", e.toString());
            return Mono.just(result);
        });
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> structured(McpSchema.CallToolResult r) {
        return r.structuredContent() instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
    }
}
