package dev.switchboard.bridge.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.bridge.engine.Actor;
import dev.switchboard.bridge.engine.Outcome;
import dev.switchboard.bridge.engine.Phase;
import dev.switchboard.bridge.engine.Session;
import dev.switchboard.bridge.engine.Turn;
import dev.switchboard.bridge.engine.TurnView;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.TaskState;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * How a session is stored: explicit JSON, versioned, so the engine's types can change without
 * breaking the rows already written.
 *
 * <ul>
 *   <li><b>v2</b> (written): {@code {"v":2,…}}, the session's fields and one object per turn, grouped as
 *       {@link Turn} groups them (waiting, progress, retries, following, cancelling, question). Absent
 *       fields are null, false or zero; nulls are not written. Durations are ISO-8601 ({@code PT1H}).</li>
 *   <li><b>v1</b> (read only): no {@code v}; what Jackson wrote over the engine's private fields before
 *       the engine had records: every turn field flat, durations as decimal seconds.</li>
 * </ul>
 */
public final class SessionFormat {

    public static final int VERSION = 2;

    private static final ObjectMapper JSON = new ObjectMapper();

    private SessionFormat() {}

    public static String write(Session s) {
        ObjectNode o = JSON.createObjectNode();
        o.put("v", VERSION);
        put(o, "id", s.id());
        put(o, "platform", s.platform());
        put(o, "dialect", s.dialect());
        o.put("questionsAllowed", s.questionsAllowed());
        put(o, "questionTimeout", s.questionTimeout());
        put(o, "currentFingerprint", s.currentFingerprint());
        put(o, "cardFingerprint", s.cardFingerprint());
        put(o, "agentVersion", s.agentVersion());
        put(o, "contextId", s.contextId());
        o.put("gen", s.gen());
        if (s.lastQuestion() != null) {
            ObjectNode q = o.putObject("lastQuestion");
            put(q, "messageId", s.lastQuestion().messageId());
            put(q, "timestamp", s.lastQuestion().timestamp());
        }
        ArrayNode seen = o.putArray("seenMessageIds");
        s.seenMessageIds().forEach(seen::add);
        ArrayNode turns = o.putArray("turns");
        s.turns().forEach(t -> writeTurn(turns.addObject(), t));
        try {
            return JSON.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
    }

    /** Reads a stored session in any format this version knows (v1 or v2). */
    public static Session read(String json) {
        JsonNode o;
        try {
            o = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("a stored session is not JSON", e);
        }
        if (o == null || !o.isObject()) {
            throw new IllegalArgumentException("a stored session is not a JSON object");
        }
        JsonNode v = o.get("v");
        if (v == null) {
            return readV1(o);
        }
        if (v.asInt() == 2) {
            return readV2(o);
        }
        throw new IllegalArgumentException("stored session format v" + v.asText() + " is newer than this version reads");
    }

    // ---- v2 ----

    private static void writeTurn(ObjectNode o, Turn t) {
        put(o, "messageId", t.messageId());
        put(o, "text", t.text());
        putActor(o, "actor", t.actor());
        put(o, "acceptedAt", t.acceptedAt());
        put(o, "phase", t.phase());
        put(o, "view", t.view());
        put(o, "outcome", t.outcome());
        put(o, "trace", t.trace());
        if (!t.waiting().equals(new Turn.Wait(null, null))) {
            ObjectNode w = o.putObject("waiting");
            put(w, "next", t.waiting().next());
            put(w, "until", t.waiting().until());
        }
        Turn.Progress p = t.progress();
        ObjectNode po = o.putObject("progress");
        put(po, "taskId", p.taskId());
        put(po, "lastState", p.lastState());
        put(po, "lastStatusTimestamp", p.lastStatusTimestamp());
        ObjectNode arts = po.putObject("artifacts");
        p.artifacts().forEach(arts::put);
        po.put("answerCut", p.answerCut());
        Turn.Retries r = t.retries();
        ObjectNode ro = o.putObject("retries");
        ro.put("sendAttempts", r.sendAttempts());
        ro.put("retryAttempt", r.retryAttempt());
        put(ro, "troubleSince", r.troubleSince());
        put(ro, "busySince", r.busySince());
        ro.put("busyNoticed", r.busyNoticed());
        Turn.Following f = t.following();
        ObjectNode fo = o.putObject("following");
        fo.put("subscribed", f.subscribed());
        fo.put("subscribeUnsupported", f.subscribeUnsupported());
        put(fo, "silenceDeadline", f.silenceDeadline());
        fo.put("lastEventWasTask", f.lastEventWasTask());
        put(fo, "streamLostAt", f.streamLostAt());
        put(fo, "lastSignOfLife", f.lastSignOfLife());
        fo.put("pollAttempt", f.pollAttempt());
        fo.put("listPages", f.listPages());
        Turn.Cancelling c = t.cancelling();
        ObjectNode co = o.putObject("cancelling");
        co.put("attempts", c.attempts());
        put(co, "outcome", c.outcome());
        Turn.Question q = t.question();
        ObjectNode qo = o.putObject("question");
        put(qo, "deadline", q.deadline());
        put(qo, "answerMessageId", q.answerMessageId());
        put(qo, "answerText", q.answerText());
        putActor(qo, "answerActor", q.answerActor());
        ArrayNode ids = qo.putArray("answerMessageIds");
        q.answerMessageIds().forEach(ids::add);
        qo.put("answerPending", q.answerPending());
        qo.put("answerSent", q.answerSent());
    }

    private static Session readV2(JsonNode o) {
        JsonNode lq = o.path("lastQuestion");
        Session.LastQuestion lastQuestion = lq.isObject()
                ? new Session.LastQuestion(text(lq, "messageId"), instant(lq, "timestamp")) : null;
        List<Turn> turns = new ArrayList<>();
        o.path("turns").forEach(t -> turns.add(readTurnV2(t)));
        return new Session(text(o, "id"), text(o, "platform"), text(o, "dialect"), o.path("questionsAllowed").asBoolean(),
                isoDuration(o, "questionTimeout"), text(o, "currentFingerprint"), text(o, "cardFingerprint"),
                enumOf(o, "agentVersion", ProtocolVersion::valueOf), text(o, "contextId"), o.path("gen").asLong(),
                turns, list(o.path("seenMessageIds")), lastQuestion);
    }

    private static Turn readTurnV2(JsonNode o) {
        JsonNode w = o.path("waiting");
        JsonNode p = o.path("progress");
        JsonNode r = o.path("retries");
        JsonNode f = o.path("following");
        JsonNode c = o.path("cancelling");
        JsonNode q = o.path("question");
        return new Turn(text(o, "messageId"), text(o, "text"), actor(o.get("actor")), instant(o, "acceptedAt"),
                enumOf(o, "phase", Phase::valueOf), enumOf(o, "view", TurnView::valueOf), enumOf(o, "outcome", Outcome::valueOf),
                new Turn.Wait(enumOf(w, "next", Turn.Next::valueOf), instant(w, "until")),
                new Turn.Progress(text(p, "taskId"), enumOf(p, "lastState", TaskState::valueOf),
                        instant(p, "lastStatusTimestamp"), artifacts(p.path("artifacts")), p.path("answerCut").asBoolean()),
                new Turn.Retries(r.path("sendAttempts").asInt(), r.path("retryAttempt").asInt(), instant(r, "troubleSince"),
                        instant(r, "busySince"), r.path("busyNoticed").asBoolean()),
                new Turn.Following(f.path("subscribed").asBoolean(), f.path("subscribeUnsupported").asBoolean(),
                        instant(f, "silenceDeadline"), f.path("lastEventWasTask").asBoolean(), instant(f, "streamLostAt"),
                        instant(f, "lastSignOfLife"), f.path("pollAttempt").asInt(), f.path("listPages").asInt()),
                new Turn.Cancelling(c.path("attempts").asInt(), enumOf(c, "outcome", Outcome::valueOf)),
                new Turn.Question(instant(q, "deadline"), text(q, "answerMessageId"), text(q, "answerText"),
                        actor(q.get("answerActor")), list(q.path("answerMessageIds")),
                        q.path("answerPending").asBoolean(), q.path("answerSent").asBoolean()),
                text(o, "trace"));
    }

    // ---- v1: the flat shape Jackson wrote over the engine's fields ----

    private static Session readV1(JsonNode o) {
        Session.LastQuestion lastQuestion = o.path("questionAsked").asBoolean()
                ? new Session.LastQuestion(text(o, "lastQuestionMessageId"), instant(o, "lastQuestionTimestamp")) : null;
        List<Turn> turns = new ArrayList<>();
        o.path("turns").forEach(t -> turns.add(readTurnV1(t)));
        return new Session(text(o, "id"), text(o, "platform"), text(o, "dialect"), o.path("questionsAllowed").asBoolean(),
                secondsDuration(o.get("questionTimeout")), text(o, "currentFingerprint"), text(o, "cardFingerprint"),
                enumOf(o, "agentVersion", ProtocolVersion::valueOf), text(o, "contextId"), o.path("gen").asLong(),
                turns, list(o.path("seenMessageIds")), lastQuestion);
    }

    private static Turn readTurnV1(JsonNode o) {
        return new Turn(text(o, "messageId"), text(o, "text"), actor(o.get("actor")), instant(o, "acceptedAt"),
                o.hasNonNull("phase") ? Phase.valueOf(o.get("phase").asText()) : Phase.QUEUED,
                enumOf(o, "view", TurnView::valueOf), enumOf(o, "outcome", Outcome::valueOf),
                new Turn.Wait(enumOf(o, "next", Turn.Next::valueOf), instant(o, "waitUntil")),
                new Turn.Progress(text(o, "taskId"), enumOf(o, "lastState", TaskState::valueOf),
                        instant(o, "lastStatusTimestamp"), artifacts(o.path("artifacts")), o.path("answerCut").asBoolean()),
                new Turn.Retries(o.path("sendAttempts").asInt(), o.path("retryAttempt").asInt(), instant(o, "troubleSince"),
                        instant(o, "busySince"), o.path("busyNoticed").asBoolean()),
                new Turn.Following(o.path("subscribed").asBoolean(), o.path("subscribeUnsupported").asBoolean(),
                        instant(o, "silenceDeadline"), o.path("lastEventWasTask").asBoolean(), instant(o, "streamLostAt"),
                        instant(o, "lastSignOfLife"), o.path("pollAttempt").asInt(), o.path("listPages").asInt()),
                new Turn.Cancelling(o.path("cancelAttempts").asInt(), enumOf(o, "cancelOutcome", Outcome::valueOf)),
                new Turn.Question(instant(o, "questionDeadline"), text(o, "answerMessageId"), text(o, "answerText"),
                        actor(o.get("answerActor")), list(o.path("answerMessageIds")),
                        o.path("answerPending").asBoolean(), o.path("answerSent").asBoolean()),
                null);
    }

    /** v1 wrote a Duration as decimal seconds ({@code 3600.000000000}); an ISO string is read too. */
    private static Duration secondsDuration(JsonNode n) {
        if (n == null || n.isNull()) {
            return null;
        }
        if (n.isTextual()) {
            return Duration.parse(n.asText());
        }
        BigDecimal seconds = n.decimalValue();
        long whole = seconds.longValue();
        long nanos = seconds.subtract(BigDecimal.valueOf(whole)).movePointRight(9).longValue();
        return Duration.ofSeconds(whole, nanos);
    }

    // ---- shared ----

    private static void put(ObjectNode o, String field, Object value) {
        if (value != null) {
            o.put(field, value instanceof Enum<?> e ? e.name() : value.toString());
        }
    }

    private static void putActor(ObjectNode o, String field, Actor actor) {
        if (actor != null) {
            ObjectNode a = o.putObject(field);
            put(a, "id", actor.id());
            put(a, "name", actor.name());
            put(a, "email", actor.email());
        }
    }

    private static String text(JsonNode o, String field) {
        JsonNode n = o.get(field);
        return n == null || n.isNull() ? null : n.asText();
    }

    private static Instant instant(JsonNode o, String field) {
        String s = text(o, field);
        return s == null ? null : Instant.parse(s);
    }

    private static Duration isoDuration(JsonNode o, String field) {
        String s = text(o, field);
        return s == null ? null : Duration.parse(s);
    }

    private static <E> E enumOf(JsonNode o, String field, Function<String, E> valueOf) {
        String s = text(o, field);
        return s == null ? null : valueOf.apply(s);
    }

    private static Actor actor(JsonNode a) {
        return a == null || a.isNull() ? null : new Actor(text(a, "id"), text(a, "name"), text(a, "email"));
    }

    private static List<String> list(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }


    private static Map<String, String> artifacts(JsonNode o) {
        Map<String, String> out = new LinkedHashMap<>();
        o.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }
}
