package dev.switchboard.bridge.engine;

import static dev.switchboard.bridge.engine.Wire.http;
import static dev.switchboard.bridge.engine.Wire.rpc;
import static dev.switchboard.bridge.engine.Wire.task;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.jsonrpc.JsonRpcError;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.Part;
import dev.switchboard.protocol.model.Role;
import dev.switchboard.protocol.model.TaskState;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Seed 000, "What Agent Kourier sends": one test per row (B3, B4). */
class WhatIsSentRowsTest {

    @Test
    @DisplayName("What is sent: every send is one user message with exactly one text part; no data or file parts")
    void sends_everySendIsOneUserMessageWithExactlyOneTextPart() {
        EngineHarness h = EngineHarness.a2a();
        h.askedQuestion("m1", "q1");
        h.answered("a1", "Tuesday");
        h.fail(rpc(JsonRpcError.UNSUPPORTED_OPERATION));
        h.nextCall(Duration.ofMinutes(1)); // the answer again
        h.stream(task("t1", "c1", TaskState.COMPLETED, "ok"));
        h.chat("m2", "again");
        h.fail(http(503));
        h.nextCall(Duration.ofMinutes(1));
        h.listed(Wire.page(""));

        assertThat(h.sends()).hasSize(5).allSatisfy(s -> {
            Message m = s.message();
            assertThat(m.role()).isEqualTo(Role.USER);
            assertThat(m.parts()).singleElement().isInstanceOf(Part.Text.class);
        });
    }

    @Test
    @DisplayName("What is sent: messageId — fixed for each chat message; a turn sent again after -32004 or an "
            + "unknown outcome keeps it; an answer to a question has its own")
    void sends_messageIdIsFixedPerChatMessageKeptOnResendAndAnAnswerHasItsOwn() {
        EngineHarness h = EngineHarness.a2a();
        h.firstTurn("m1", "hi");
        h.fail(rpc(JsonRpcError.UNSUPPORTED_OPERATION)); // busy
        h.nextCall(Duration.ofMinutes(1));
        h.fail(Wire.dropped()); // unknown outcome, first turn: sent again as it is
        h.nextCall(Duration.ofMinutes(1));
        h.event(Message.agentText("reply-1", "hello")); // a bare Message: unknown outcome
        h.nextCall(Duration.ofMinutes(1));
        assertThat(h.sends()).hasSize(4).extracting(s -> s.message().messageId()).containsOnly("m1");

        dev.switchboard.protocol.model.TaskStatus question = Wire.asking("q1", h.now, "Which day?");
        h.event(task("t1", "c1", question));
        h.chat("a1", "Tuesday");
        h.read(task("t1", "c1", question));
        assertThat(h.sends()).last().extracting(s -> s.message().messageId()).isEqualTo("a1");
    }

    @Test
    @DisplayName("What is sent: contextId — empty on a thread's first turn; after that, the context the agent returned")
    void sends_contextIdIsEmptyOnTheFirstTurnThenTheAgents() {
        EngineHarness h = EngineHarness.a2a();
        h.completedTurn("m1", "one", "t1", "ctx-from-agent", "1");
        h.completedTurn("m2", "two", "t2", "ctx-from-agent", "2");
        h.chat("m3", "three");

        assertThat(h.sends()).extracting(s -> s.message().contextId())
                .containsExactly(null, "ctx-from-agent", "ctx-from-agent");
    }

    @Test
    @DisplayName("What is sent: taskId — set only on an answer, to the paused task; a new turn never sets it")
    void sends_taskIdOnlyOnAnAnswerToThePausedTask() {
        EngineHarness h = EngineHarness.a2a();
        h.askedQuestion("m1", "q1");
        Effect.SendStream answer = h.answered("a1", "Tuesday");
        h.stream(task("t1", "c1", TaskState.COMPLETED, "booked"));
        h.chat("m2", "and another");
        h.fail(http(500)); // resent after a lookup: still no taskId
        h.nextCall(Duration.ofMinutes(1));
        h.listed(Wire.page(""));

        assertThat(answer.message().taskId()).isEqualTo("t1");
        assertThat(answer.message().contextId()).isEqualTo("c1");
        assertThat(h.sends()).filteredOn(s -> !s.message().messageId().equals("a1"))
                .hasSize(3).allSatisfy(s -> assertThat(s.message().taskId()).isNull());
    }

    @Test
    @DisplayName("What is sent: metadata[\"agentkourier.dev/actor\"] — on a person's turn: id, and name and email when "
            + "the chat platform knows them; a turn a trigger started carries none")
    void sends_actorMetadataOnAPersonsTurnOnlyWithTheFieldsThePlatformKnows() {
        EngineHarness h = EngineHarness.a2a();
        h.chat("m1", "hi", new Actor("U1", "Ada Lovelace", "ada@example.com"));
        h.card(Wire.card10());
        h.stream(task("t1", "c1", TaskState.COMPLETED, "1"));
        h.chat("m2", "hi", new Actor("U2", null, null));
        h.stream(task("t2", "c1", TaskState.COMPLETED, "2"));
        h.chat("m3", "alert: disk full", null);

        List<Effect.SendStream> sends = h.sends();
        JsonNode full = sends.get(0).message().metadata().get(Engine.ACTOR_KEY);
        assertThat(full.get("id").asText()).isEqualTo("U1");
        assertThat(full.get("name").asText()).isEqualTo("Ada Lovelace");
        assertThat(full.get("email").asText()).isEqualTo("ada@example.com");
        assertThat(full.size()).isEqualTo(3);

        JsonNode bare = sends.get(1).message().metadata().get(Engine.ACTOR_KEY);
        assertThat(bare.get("id").asText()).isEqualTo("U2");
        assertThat(bare.has("name")).isFalse();
        assertThat(bare.has("email")).isFalse();

        assertThat(sends.get(2).message().metadata()).isNull();
    }

    @Test
    @DisplayName("What is sent: the text of a person's turn starts with [Platform: Name (id) <email>] and a newline; "
            + "a trigger's text has no prefix")
    void sends_personsTextStartsWithThePlatformPrefixLine() {
        EngineHarness web = EngineHarness.a2a();
        web.chat("m1", "what is up?", new Actor("local", "Local User", "me@example.com"));
        web.card(Wire.card10());
        assertThat(text(web.call(Effect.SendStream.class))).isEqualTo("[Web: Local User (local) <me@example.com>]\nwhat is up?");
        web.stream(task("t1", "c1", TaskState.COMPLETED, "1"));

        web.chat("m2", "no email", new Actor("U9", "Bob", ""));
        assertThat(text(web.call(Effect.SendStream.class))).isEqualTo("[Web: Bob (U9)]\nno email");
        web.stream(task("t2", "c1", TaskState.COMPLETED, "2"));

        web.chat("m3", "Alert DiskFull firing", null);
        assertThat(text(web.call(Effect.SendStream.class))).isEqualTo("Alert DiskFull firing");

        EngineHarness slack = new EngineHarness(Platform.SLACK, Dialect.A2A, true, Duration.ofHours(1));
        slack.chat("m1", "deploy?", new Actor("U123", "Name", "email@example.com"));
        slack.card(Wire.card10());
        assertThat(text(slack.call(Effect.SendStream.class))).isEqualTo("[Slack: Name (U123) <email@example.com>]\ndeploy?");

        // an answer is a person's text too
        EngineHarness answer = EngineHarness.a2a();
        answer.askedQuestion("m1", "q1");
        assertThat(text(answer.answered("a1", "Tuesday"))).isEqualTo("[Web: Ada Lovelace (U123) <ada@example.com>]\nTuesday");
    }

    @Test
    @DisplayName("What is sent: every request carries the Binding's identity (the client's headers); the actor is "
            + "informational, and a rejected identity is a credential rejection")
    void sends_theIdentityIsTheBindingsAndTheActorIsInformational() {
        // the identity headers are the client's; the engine's calls carry no identity of their own, and two
        // people's turns differ only in the informational actor and prefix
        EngineHarness h = EngineHarness.a2a();
        h.chat("m1", "x", new Actor("U1", "Ada", null));
        h.card(Wire.card10());
        h.stream(task("t1", "c1", TaskState.COMPLETED, "1"));
        h.chat("m2", "x", new Actor("U2", "Bob", null));
        Message a = h.sends().get(0).message();
        Message b = h.sends().get(1).message();
        assertThat(a.extensions()).isEqualTo(b.extensions()).isEmpty();
        assertThat(a.metadata().fieldNames()).toIterable().containsExactly(Engine.ACTOR_KEY);

        h.fail(http(401));
        assertThat(h.expect(Effect.CountCredentialRejection.class)).isNotNull();
        assertThat(h.finished("m2")).isTrue();
    }

    private static String text(Effect.SendStream s) {
        return ((Part.Text) s.message().parts().get(0)).text();
    }
}
