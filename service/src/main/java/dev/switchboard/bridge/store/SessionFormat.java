package dev.switchboard.bridge.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.bridge.engine.Actor;
import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.bridge.engine.Outcome;
import dev.switchboard.bridge.engine.Phase;
import dev.switchboard.bridge.engine.Platform;
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
 *   <li><b>v3</b> (written): v2 without {@code seenMessageIds}. Repeated chat messages are found by their
 *       post (a primary-key probe), so the session no longer carries the ids it has seen.</li>
 *   <li><b>v2</b> (read): {@code {"v":2,…}}, the session's fields and one object per turn, grouped as
 *       {@link Turn} groups them (waiting, progress, retries, following, cancelling, question). Absent
 *       fields are null, false or zero; nulls are not written. Durations are ISO-8601 ({@code PT1H}).
 *       Its {@code seenMessageIds} are ignored.</li>
 *   <li><b>v1</b> (read): no {@code v}; what Jackson wrote over the engine's private fields before
 *       the engine had records: every turn field flat, durations as decimal seconds; its
 *       {@code seenMessageIds} are ignored too.</li>
 * </ul>
 */
public final class SessionFormat {

    public static final int VERSION = 3;

    private static final ObjectMapper JSON = new ObjectMapper();

    private SessionFormat() {}

    public static String write(Session s) {
        ObjectNode o = JSON.createObjectNode();
        o.put("v", VERSION);
        put(o, "id", s.id());
        // the label and the config spelling, as the strings these fields held before they were enums
        put(o, "platform", s.platform() == null ? null : s.platform().label());
        put(o, "dialect", s.dialect() == null ? null : s.dialect().configName());
        o.put("questionsAllowed", s.questionsAllowed());
        put(o, "questionTimeout", s.questionTimeout());
        put(o, "currentFingerprint", s.currentFingerprint());
        put(o, "cardFingerprint", s.cardFingerprint());
        put(o, "agentVersion", s.agentVersion());
        put(o, "contextId", s.contextId());
        o.put("gen", s.gen());
        if (s.hitl()) {
            o.put("hitl", true);
        }
        if (s.lastQuestion() != null) {
            ObjectNode q = o.putObject("lastQuestion");
            put(q, "messageId", s.lastQuestion().messageId());
            put(q, "timestamp", s.lastQuestion().timestamp());
        }
        ArrayNode turns = o.putArray("turns");
        s.turns().forEach(t -> writeTurn(turns.addObject(), t));
        try {
            return JSON.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
    }

    /** Reads a stored session in any format this version knows (v1, v2 or v3). */
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
        if (v.asInt() == 2 || v.asInt() == 3) {
            return readV2(o); // v3 is v2 without seenMessageIds, which v2 rows still carry and are ignored
        }
        throw new IllegalArgumentException("stored session format v" + v.asText() + " is newer than this version reads");
    }

    // ---- v3 (and v2) ----

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
        put(qo, "hitlRequest", q.hitlRequest());
        put(qo, "hitlAnswer", q.hitlAnswer());
    }

    private static Session readV2(JsonNode o) {
        JsonNode lq = o.path("lastQuestion");
        Session.LastQuestion lastQuestion = lq.isObject()
                ? new Session.LastQuestion(text(lq, "messageId"), instant(lq, "timestamp")) : null;
        List<Turn> turns = new ArrayList<>();
        o.path("turns").forEach(t -> turns.add(readTurnV2(t)));
        return new Session(text(o, "id"), platform(o), dialect(o), o.path("questionsAllowed").asBoolean(),
                isoDuration(o, "questionTimeout"), text(o, "currentFingerprint"), text(o, "cardFingerprint"),
                enumOf(o, "agentVersion", ProtocolVersion::valueOf), text(o, "contextId"), o.path("gen").asLong(),
                turns, lastQuestion, o.path("hitl").asBoolean(false));
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
                        q.path("answerPending").asBoolean(), q.path("answerSent").asBoolean(), text(q, "hitlRequest"),
                        text(q, "hitlAnswer")),
                text(o, "trace"));
    }

    // ---- an answer post's parts ----

    /**
     * How an answer post's text divides into the turn's artifacts: {@code {"cut":false,"parts":[["a1",17]]}},
     * each artifact's id and length in order (the post's text is their concatenation, then the cut note when
     * {@code cut}). A streamed chunk writes this with the post instead of rewriting the session.
     */
    public static String answerParts(Turn.Progress p) {
        ObjectNode o = JSON.createObjectNode();
        o.put("cut", p.answerCut());
        ArrayNode parts = o.putArray("parts");
        p.artifacts().forEach((id, text) -> parts.addArray().add(id).add(text.length()));
        try {
            return JSON.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
    }

    /**
     * The session with its active turn's answer as its answer post shows it, when the post is ahead of the
     * stored session: chunks that changed only the answer wrote the post and not the session. The post was
     * then written last, so it also tells the turn's last sign of life. A post with no parts (not an answer,
     * or written before they were kept), or one that agrees with the session, changes nothing.
     */
    public static Session withAnswerPost(Session s, String postText, String parts, Instant postUpdatedAt) {
        if (s.turns().isEmpty() || postText == null || parts == null) {
            return s;
        }
        JsonNode o;
        try {
            o = JSON.readTree(parts);
        } catch (JsonProcessingException e) {
            return s; // unreadable parts: the stored session stands, and GetTask shows the answer again
        }
        Map<String, String> artifacts = new LinkedHashMap<>();
        int at = 0;
        for (JsonNode part : o.path("parts")) {
            int end = at + part.path(1).asInt();
            if (end > postText.length() || end < at) {
                return s;
            }
            artifacts.put(part.path(0).asText(), postText.substring(at, end));
            at = end;
        }
        boolean cut = o.path("cut").asBoolean();
        Turn t = s.turns().get(0);
        if (String.join("", artifacts.values()).equals(t.answer()) && cut == t.progress().answerCut()) {
            return s; // written with the session, or no chunk since: the session's own artifacts stand
        }
        Turn.Progress p = t.progress();
        Turn.Following f = t.following();
        Instant sign = f.lastSignOfLife() == null || f.lastSignOfLife().isBefore(postUpdatedAt)
                ? postUpdatedAt : f.lastSignOfLife();
        Turn changed = new Turn(t.messageId(), t.text(), t.actor(), t.acceptedAt(), t.phase(), t.view(), t.outcome(),
                t.waiting(), new Turn.Progress(p.taskId(), p.lastState(), p.lastStatusTimestamp(), artifacts, cut),
                t.retries(), new Turn.Following(f.subscribed(), f.subscribeUnsupported(), f.silenceDeadline(),
                        f.lastEventWasTask(), f.streamLostAt(), sign, f.pollAttempt(), f.listPages()),
                t.cancelling(), t.question(), t.trace());
        List<Turn> turns = new ArrayList<>(s.turns());
        turns.set(0, changed);
        return new Session(s.id(), s.platform(), s.dialect(), s.questionsAllowed(), s.questionTimeout(),
                s.currentFingerprint(), s.cardFingerprint(), s.agentVersion(), s.contextId(), s.gen(), turns,
                s.lastQuestion(), s.hitl());
    }

    // ---- v1: the flat shape Jackson wrote over the engine's fields ----

    private static Session readV1(JsonNode o) {
        Session.LastQuestion lastQuestion = o.path("questionAsked").asBoolean()
                ? new Session.LastQuestion(text(o, "lastQuestionMessageId"), instant(o, "lastQuestionTimestamp")) : null;
        List<Turn> turns = new ArrayList<>();
        o.path("turns").forEach(t -> turns.add(readTurnV1(t)));
        return new Session(text(o, "id"), platform(o), dialect(o), o.path("questionsAllowed").asBoolean(),
                secondsDuration(o.get("questionTimeout")), text(o, "currentFingerprint"), text(o, "cardFingerprint"),
                enumOf(o, "agentVersion", ProtocolVersion::valueOf), text(o, "contextId"), o.path("gen").asLong(),
                turns, lastQuestion, false);
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

    /** A stored session keeps its platform's label ({@code Web}); the config spelling ({@code web}) reads too. */
    private static Platform platform(JsonNode o) {
        String s = text(o, "platform");
        if (s == null) {
            return null;
        }
        for (Platform p : Platform.values()) {
            if (p.label().equals(s) || p.configName().equals(s)) {
                return p;
            }
        }
        return Platform.fromLabel(s);
    }

    private static Dialect dialect(JsonNode o) {
        String s = text(o, "dialect");
        return s == null ? null : Dialect.fromConfig(s);
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
