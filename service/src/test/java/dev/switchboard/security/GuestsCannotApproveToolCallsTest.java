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
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22, L2: a guest invited to one channel sees its approval buttons like everyone there. With no
 * {@code questions.approvers}, a tool call is decided by the workspace's full members only: a guest's click
 * (multi- or single-channel, as {@code users.info} says) and a guest's typed "yes" decide nothing, and the
 * guest is told so, to them alone.
 */
@ServerTest
class GuestsCannotApproveToolCallsTest {

    static final String GUEST = "U0GUEST01";
    static final String SINGLE_CHANNEL_GUEST = "U0GUEST02";

    @TempDir
    Path dir;
    @AutoClose
    SlackRig rig;

    @Test
    void aGuestsClickOrYesDecidesNothingAndAMembersDoes() {
        rig = SlackRig.kagent(dir, "events");
        rig.slack.addGuest(GUEST, "Gus", false).addGuest(SINGLE_CHANNEL_GUEST, "Sam", true);
        String team = rig.slack.options().teamId();
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/approve delete_pod {\"name\":\"web-1\"}", null);
        SlackMessage q = question(rig, m.ts());

        click(rig, q, m.ts(), GUEST, team, SlackRig.APPROVE);
        awaitToldOnly(rig, GUEST, "Guests cannot approve or reject tool calls here.");
        click(rig, q, m.ts(), SINGLE_CHANNEL_GUEST, team, SlackRig.REJECT);
        awaitToldOnly(rig, SINGLE_CHANNEL_GUEST, "Guests cannot approve");
        rig.reply(GUEST, "yes", m.ts());
        await().until(() -> SlackApprovals.told(rig, GUEST).size() == 2);
        assertThat(SlackApprovals.told(rig, GUEST).get(1).param("text")).contains("not taken as an answer");

        click(rig, q, m.ts(), SlackRig.GRACE, team, SlackRig.APPROVE);
        List<RecordedRequest> decisions = awaitDecisions(rig, 1);
        assertThat(decisions).hasSize(1);
        assertThat(approved(decisions.get(0))).isTrue();
        await().until(() -> rig.slack.message(q.channel(), q.ts()).blocks().contains("*Approved* by Grace"));
        assertThat(q.blocks()).as("who may decide").contains("Members of this workspace (not guests) can decide");
    }
}
