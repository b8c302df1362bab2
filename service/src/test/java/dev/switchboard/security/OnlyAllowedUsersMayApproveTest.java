package dev.switchboard.security;

import static dev.switchboard.security.SlackApprovals.approved;
import static dev.switchboard.security.SlackApprovals.awaitDecisions;
import static dev.switchboard.security.SlackApprovals.awaitToldOnly;
import static dev.switchboard.security.SlackApprovals.click;
import static dev.switchboard.security.SlackApprovals.question;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.chat.slack.SlackRig;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.slack.SlackMessage;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 28, who may act: a Binding with {@code allowedUsers} and no {@code questions.approvers} has its tool calls
 * decided by its allowed people (and the members of its allowed groups) alone. Anyone else in the channel who clicks
 * Approve is told who may decide, to them alone; their typed "yes" is no answer; nothing of theirs decides; the
 * question names who decides.
 */
@ServerTest
class OnlyAllowedUsersMayApproveTest {

    private static final String ON_CALL = "S0ONCALL1";
    private static final String OPS = "U0OPS0001";
    private static final String MALLORY = "U0MALLORY";

    @AutoClose
    SlackRig rig;

    @ParameterizedTest
    @ValueSource(strings = {"events", "socket"})
    void withoutApproversTheAllowedUsersDecideAndNobodyElse(String mode, @TempDir Path dir) {
        rig = SlackRig.kagent(dir, mode, "allowedUsers: [" + SlackRig.ADA + ", " + ON_CALL + "]");
        rig.slack.addUser(OPS, "Olga", "Olga Ops", "olga@example.com")
                .addUser(MALLORY, "Mallory", "Mallory M", "mallory@example.com").addUserGroup(ON_CALL, OPS);
        String team = rig.slack.options().teamId();
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/approve delete_pod {\"name\":\"web-1\"}", null);
        SlackMessage q = question(rig, m.ts());
        String who = "<@" + SlackRig.ADA + "> or <!subteam^" + ON_CALL + ">";
        assertThat(q.blocks()).as("the question names who decides").contains("Only " + who + " can decide");

        click(rig, q, m.ts(), MALLORY, team, SlackRig.APPROVE);
        awaitToldOnly(rig, MALLORY, "only " + who + " can approve or reject this tool call.");
        // a reply of someone who may not talk to the agent is no answer: kept only as the thread's side talk
        rig.reply(MALLORY, "yes", m.ts());

        click(rig, q, m.ts(), OPS, team, SlackRig.APPROVE);
        List<RecordedRequest> decisions = awaitDecisions(rig, 1);
        assertThat(decisions).as("the allowed group member's decision, and only it").hasSize(1);
        assertThat(approved(decisions.get(0))).isTrue();
        assertThat(decisions.get(0).text()).as("decided by the group member's click, not by the typed reply before")
                .isEqualTo("Approved");
        assertThat(SlackApprovals.told(rig, OPS)).isEmpty();
    }
}
