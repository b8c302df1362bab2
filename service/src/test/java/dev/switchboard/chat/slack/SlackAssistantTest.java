package dev.switchboard.chat.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.protocol.model.AgentSkill;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgentOptions;
import dev.switchboard.testkit.slack.FakeSlackOptions;
import dev.switchboard.testkit.slack.EventOptions;
import dev.switchboard.testkit.slack.SlackCall;
import dev.switchboard.testkit.slack.SlackEvents;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 28, the agent view: an assistant thread opened is offered the agent's skills as suggested prompts, and a
 * turn in a direct-message thread shows "is thinking…" while it runs, cleared at its end.
 */
@ServerTest
class SlackAssistantTest {

    private static final String DM = "D0ADA0001";

    @TempDir
    Path dir;
    @AutoClose
    SlackRig rig;

    @ParameterizedTest
    @ValueSource(strings = {"events", "socket"})
    void anAssistantThreadIsOfferedTheAgentsSkillsAsSuggestedPrompts(String mode) {
        rig = SlackRig.withSkills(dir, mode, "[{id: restart, name: Restart a pod, description: Restarts a pod safely}, "
                + "{id: logs, name: Read logs}]");
        String threadTs = rig.slack.postAsUser(DM, null, SlackRig.ADA, "");
        JsonObject started = new JsonObject().put("type", "assistant_thread_started").put("assistant_thread",
                new JsonObject().put("user_id", SlackRig.ADA).put("channel_id", DM).put("thread_ts", threadTs)
                        .put("context", new JsonObject()));
        rig.deliver(started, EventOptions.defaults());
        SlackCall call = await().until(() -> rig.slack.calls("assistant.threads.setSuggestedPrompts").stream()
                .findFirst().orElse(null), c -> c != null);
        assertThat(call.param("channel_id")).isEqualTo(DM);
        assertThat(call.param("thread_ts")).isEqualTo(threadTs);
        JsonArray prompts = new JsonArray(call.param("prompts"));
        assertThat(prompts).hasSize(2);
        assertThat(prompts.getJsonObject(0).getString("title")).isEqualTo("Restart a pod");
        assertThat(prompts.getJsonObject(0).getString("message")).isEqualTo("Restart a pod: Restarts a pod safely");
        assertThat(prompts.getJsonObject(1).getString("title")).isEqualTo("Read logs");
    }

    @ParameterizedTest
    @ValueSource(strings = {"events", "socket"})
    void withNoSkillsConfiguredThePromptsComeFromTheAgentsCard(String mode) {
        AgentSkill triage = new AgentSkill("triage", "Triage an alert", "Looks at an alert", List.of("ops"),
                List.of("Why is checkout slow?", "Is the payments queue backing up?"), null, null);
        AgentSkill runbooks = new AgentSkill("runbooks", "Find a runbook", null, List.of(), List.of(), null, null);
        rig = new SlackRig(dir, mode, FakeSlackOptions.defaults(),
                TestAgentOptions.echo("sre").withSkills(List.of(triage, runbooks)), null);
        String threadTs = rig.slack.postAsUser(DM, null, SlackRig.ADA, "");
        rig.deliver(new JsonObject().put("type", "assistant_thread_started").put("assistant_thread",
                new JsonObject().put("user_id", SlackRig.ADA).put("channel_id", DM).put("thread_ts", threadTs)
                        .put("context", new JsonObject())), EventOptions.defaults());
        SlackCall call = await().until(() -> rig.slack.calls("assistant.threads.setSuggestedPrompts").stream()
                .findFirst().orElse(null), c -> c != null);
        JsonArray prompts = new JsonArray(call.param("prompts"));
        assertThat(prompts).as("the card's examples first, then the names of skills without any").hasSize(3);
        assertThat(prompts.getJsonObject(0).getString("message")).isEqualTo("Why is checkout slow?");
        assertThat(prompts.getJsonObject(1).getString("message")).isEqualTo("Is the payments queue backing up?");
        assertThat(prompts.getJsonObject(2).getString("title")).isEqualTo("Find a runbook");
        // the card fetched for the prompts is the bridge's: the first turn does not fetch it again
        String ts = rig.slack.postAsUser(DM, threadTs, SlackRig.ADA, "hello");
        rig.deliver(SlackEvents.directMessage(DM, SlackRig.ADA, "hello", ts, threadTs), EventOptions.defaults());
        await().until(() -> rig.slack.thread(DM, threadTs).stream().anyMatch(m -> m.fromBot() && m.text().contains("hello")));
        assertThat(rig.agent.recorder().requests().stream().filter(r -> r.path().endsWith("/agent-card.json")).count())
                .isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"events", "socket"})
    void aTurnInADirectMessageThreadShowsThinkingUntilItEnds(String mode) {
        rig = new SlackRig(dir, mode);
        String ts = rig.slack.postAsUser(DM, null, SlackRig.ADA, "/stream 3 300\nhello from the agent view");
        rig.deliver(SlackEvents.directMessage(DM, SlackRig.ADA, "/stream 3 300\nhello from the agent view", ts, null),
                EventOptions.defaults());
        await().until(() -> rig.slack.calls("assistant.threads.setStatus").size() >= 2);
        List<SlackCall> status = rig.slack.calls("assistant.threads.setStatus");
        assertThat(status).hasSize(2);
        assertThat(status).allSatisfy(c -> {
            assertThat(c.param("channel_id")).isEqualTo(DM);
            assertThat(c.param("thread_ts")).isEqualTo(ts);
        });
        assertThat(status.get(0).param("status")).isEqualTo("is thinking…");
        assertThat(status.get(1).param("status")).as("cleared at the end").isEmpty();
        await().until(() -> rig.slack.thread(DM, ts).stream().anyMatch(m -> m.fromBot()
                && m.text().contains("hello from the agent view")));
        List<SlackCall> titles = rig.slack.calls("assistant.threads.setTitle");
        assertThat(titles).as("titled once, from its first turn").hasSize(1);
        assertThat(titles.get(0).param("thread_ts")).isEqualTo(ts);
        assertThat(titles.get(0).param("title")).isNotBlank();
    }

    @ParameterizedTest
    @ValueSource(strings = {"events", "socket"})
    void whileAKagentAgentCallsAToolTheStatusNamesIt(String mode) {
        rig = SlackRig.kagent(dir, mode);
        String ts = rig.slack.postAsUser(DM, null, SlackRig.ADA, "/steps");
        rig.deliver(SlackEvents.directMessage(DM, SlackRig.ADA, "/steps", ts, null), EventOptions.defaults());
        await().until(() -> rig.slack.calls("assistant.threads.setStatus").stream().anyMatch(c -> c.param("status").isEmpty()));
        List<String> statuses = rig.slack.calls("assistant.threads.setStatus").stream().map(c -> c.param("status")).toList();
        assertThat(statuses.get(0)).isEqualTo("is thinking…");
        assertThat(statuses).as("the tool named while it runs").contains("is using get_pods…");
        assertThat(statuses.get(statuses.size() - 1)).as("cleared at the end").isEmpty();
        assertThat(statuses.stream().filter(String::isEmpty)).as("cleared once").hasSize(1);
    }
}
