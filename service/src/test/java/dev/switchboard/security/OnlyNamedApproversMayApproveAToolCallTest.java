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
 * Issue 22, L2: a Binding whose {@code questions.approvers} names people (user ids) and a team (a user group) has
 * its tool calls decided by them alone. Anyone else in the channel, a full member included, who clicks Approve or
 * Reject or types "yes" is told who may decide, to them alone, and nothing reaches the agent; a member of the
 * group (read with usergroups.users.list) and a guest named by their own id may decide; a guest in the group may not.
 */
@ServerTest
class OnlyNamedApproversMayApproveAToolCallTest {

    static final String ON_CALL = "S0ONCALL1";
    static final String OPS = "U0OPS0001";
    static final String NAMED_GUEST = "U0GUEST01";
    static final String GUEST_IN_GROUP = "U0GUEST02";

    @TempDir
    Path dir;
    @AutoClose
    SlackRig rig;

    private void start() {
        rig = SlackRig.kagent(dir, "events", "questions: {approvers: [" + SlackRig.GRACE + ", " + ON_CALL + ", "
                + NAMED_GUEST + "]}");
        rig.slack.addUser(OPS, "Olga", "Olga Ops", "olga@example.com").addGuest(NAMED_GUEST, "Gus", false)
                .addGuest(GUEST_IN_GROUP, "Sam", false).addUserGroup(ON_CALL, OPS, GUEST_IN_GROUP);
    }

    @Test
    void someoneNotNamedIsToldWhoMayDecideAndDecidesNothing() {
        start();
        String team = rig.slack.options().teamId();
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/approve delete_pod {\"name\":\"web-1\"}", null);
        SlackMessage q = question(rig, m.ts());
        String who = "<@" + SlackRig.GRACE + ">, <!subteam^" + ON_CALL + "> or <@" + NAMED_GUEST + ">";
        assertThat(q.blocks()).as("the question names who decides").contains("Only " + who + " can decide");

        click(rig, q, m.ts(), SlackRig.ADA, team, SlackRig.APPROVE);
        awaitToldOnly(rig, SlackRig.ADA, "only " + who + " can approve or reject this tool call.");
        click(rig, q, m.ts(), GUEST_IN_GROUP, team, SlackRig.APPROVE);
        awaitToldOnly(rig, GUEST_IN_GROUP, "Guests cannot approve");
        rig.reply(SlackRig.ADA, "yes", m.ts());
        await().until(() -> SlackApprovals.told(rig, SlackRig.ADA).size() == 2);

        click(rig, q, m.ts(), OPS, team, SlackRig.APPROVE);
        List<RecordedRequest> decisions = awaitDecisions(rig, 1);
        assertThat(decisions).as("the group member's decision, and only it").hasSize(1);
        assertThat(approved(decisions.get(0))).isTrue();
        assertThat(rig.slack.calls("usergroups.users.list")).isNotEmpty()
                .allSatisfy(c -> assertThat(c.param("usergroup")).isEqualTo(ON_CALL));
        assertThat(SlackApprovals.told(rig, OPS)).isEmpty();
    }

    @Test
    void aNamedPersonDecidesByButtonOrByReply() {
        start();
        String team = rig.slack.options().teamId();
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/approve delete_pod", null);
        SlackMessage q = question(rig, m.ts());
        click(rig, q, m.ts(), NAMED_GUEST, team, SlackRig.REJECT);
        List<RecordedRequest> decisions = awaitDecisions(rig, 1);
        assertThat(approved(decisions.get(0))).as("a guest named by their own id").isFalse();

        SlackRig.Sent again = rig.mention(SlackRig.ADA, "/approve scale_up", null);
        question(rig, again.ts());
        rig.reply(SlackRig.GRACE, "yes", again.ts());
        decisions = awaitDecisions(rig, 2);
        assertThat(approved(decisions.get(1))).isTrue();
    }
}
