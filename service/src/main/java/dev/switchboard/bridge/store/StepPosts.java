package dev.switchboard.bridge.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.kagent.StepCard;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * A kagent step card as a post: one post per tool call and kind, so a step read again (a status resent, the task read
 * after a restart) is the same post. Its data is {@code {"kind":"call"|"result","id","name","detail","error"}},
 * {@code detail} the call's arguments or the result's response as JSON text.
 */
final class StepPosts {

    private static final ObjectMapper JSON = new ObjectMapper();

    private StepPosts() {}

    static String id(String turnMessageId, StepCard step) {
        String call = step.id() != null ? step.id() : hash(step.name() + "\n" + step.detailJson());
        return "step-" + turnMessageId + "-" + step.kind().name().toLowerCase(Locale.ROOT) + "-" + call;
    }

    static String data(StepCard step) {
        ObjectNode o = JSON.createObjectNode();
        o.put("kind", step.kind().name().toLowerCase(Locale.ROOT));
        o.put("id", step.id());
        o.put("name", step.name());
        o.put("detail", step.detailJson());
        o.put("error", step.error());
        return o.toString();
    }

    private static String hash(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
