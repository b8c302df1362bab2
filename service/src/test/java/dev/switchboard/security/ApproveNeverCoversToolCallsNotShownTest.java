package dev.switchboard.security;

import static dev.switchboard.security.SlackApprovals.approved;
import static dev.switchboard.security.SlackApprovals.awaitDecisions;
import static dev.switchboard.security.SlackApprovals.awaitToldOnly;
import static dev.switchboard.security.SlackApprovals.click;
import static dev.switchboard.security.SlackApprovals.question;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.chat.slack.SlackRig;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.slack.SlackMessage;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22, L3: Approve answers every tool call of a request, so Slack offers it only when it shows every call
 * whole. Long arguments go on in further sections instead of being cut; calls that do not fit in one message
 * (50 blocks) leave only Reject, the message says why, and neither a forged Approve click nor a typed "yes"
 * approves them.
 */
@ServerTest
class ApproveNeverCoversToolCallsNotShownTest {

    @TempDir
    Path dir;
    @AutoClose
    SlackRig rig;

    private static List<String> sectionTexts(SlackMessage m) {
        return new JsonArray(m.blocks()).stream().map(JsonObject.class::cast)
                .filter(b -> "section".equals(b.getString("type")))
                .map(b -> b.getJsonObject("text").getString("text")).toList();
    }

    @Test
    void longArgumentsAreShownWholeBeforeApproveIsOffered() {
        rig = SlackRig.kagent(dir, "events");
        String blob = "x".repeat(9_000) + "END-OF-ARGS";
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/approve run_shell {\"script\":\"" + blob + "\"}", null);
        SlackMessage q = question(rig, m.ts());
        assertThat(SlackRig.element(q, SlackRig.APPROVE)).isPresent();
        String shown = String.join("", sectionTexts(q));
        assertThat(shown).contains("END-OF-ARGS");
        assertThat(shown.chars().filter(c -> c == 'x').count()).as("every character of the arguments").isEqualTo(9_000);
        assertThat(sectionTexts(q)).allSatisfy(t -> assertThat(t.length()).isLessThanOrEqualTo(3_000));
    }

    @Test
    void fortyToolCallsAreAllShown() {
        rig = SlackRig.kagent(dir, "events");
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/approvemany 40", null);
        SlackMessage q = question(rig, m.ts());
        assertThat(SlackRig.element(q, SlackRig.APPROVE)).isPresent();
        assertThat(String.join("\n", sectionTexts(q))).contains("`scale_1`", "`scale_40`").contains("\"replica\" : 40");
    }

    @Test
    void tooManyToolCallsToShowCannotBeApprovedFromSlack() {
        rig = SlackRig.kagent(dir, "events");
        String team = rig.slack.options().teamId();
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/approvemany 60", null);
        SlackMessage q = question(rig, m.ts());
        assertThat(SlackRig.element(q, SlackRig.APPROVE)).as("no Approve for calls not shown").isEmpty();
        assertThat(q.blocks()).contains("These 60 tool calls are too much to show in one Slack message")
                .contains("only Reject is offered");
        assertThat(new JsonArray(q.blocks()).size()).isLessThanOrEqualTo(50);

        // an Approve click all the same (an old message's button, or a forged payload), and a typed yes
        click(rig, q, m.ts(), SlackRig.ADA, team, SlackRig.APPROVE);
        awaitToldOnly(rig, SlackRig.ADA, "cannot be approved from Slack");
        rig.reply(SlackRig.GRACE, "yes", m.ts());
        awaitToldOnly(rig, SlackRig.GRACE, "cannot be approved from Slack");

        click(rig, q, m.ts(), SlackRig.ADA, team, SlackRig.REJECT);
        List<RecordedRequest> decisions = awaitDecisions(rig, 1);
        assertThat(decisions).hasSize(1);
        assertThat(approved(decisions.get(0))).isFalse();
        assertThat(decisions.get(0).metadata().path(dev.switchboard.protocol.kagent.Hitl.URI).path("approvals").size())
                .as("every call rejected").isEqualTo(60);
        await().until(() -> rig.slack.message(q.channel(), q.ts()).blocks().contains("*Rejected* by Ada"));
    }
}
