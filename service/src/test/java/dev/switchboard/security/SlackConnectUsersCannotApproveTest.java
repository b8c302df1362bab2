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
 * Issue 22, L2: a channel shared with another organisation (Slack Connect) shows the agent's approval buttons to
 * that organisation's people too. A tool call is the app's own workspace's to decide: a click by someone of
 * another team, whether the click says so ({@code user.team_id}) or only {@code users.info} does, and a typed
 * "yes" of theirs, decide nothing; they are told so, to them alone, and a member's decision is the one the agent
 * gets.
 */
@ServerTest
class SlackConnectUsersCannotApproveTest {

    static final String OUTSIDER = "U0EXT0001";
    static final String OTHER_TEAM = "T0OTHER01";

    @TempDir
    Path dir;
    @AutoClose
    SlackRig rig;

    @ParameterizedTest
    @ValueSource(strings = {"events", "socket"})
    void aClickOrAYesFromAnotherOrganisationDecidesNothing(String mode) {
        rig = SlackRig.kagent(dir, mode);
        rig.slack.addExternalUser(OUTSIDER, "Mallory", OTHER_TEAM);
        SlackRig.Sent m = rig.mention(SlackRig.ADA, "/approve delete_pod {\"name\":\"web-1\"}", null);
        SlackMessage q = question(rig, m.ts());

        click(rig, q, m.ts(), OUTSIDER, OTHER_TEAM, SlackRig.APPROVE);
        awaitToldOnly(rig, OUTSIDER, "Only members of this Slack workspace");
        // a click that claims the workspace's team: users.info still says where the person is from
        click(rig, q, m.ts(), OUTSIDER, rig.slack.options().teamId(), SlackRig.APPROVE);
        await(2);
        rig.reply(OUTSIDER, "yes", m.ts());
        await(3);

        click(rig, q, m.ts(), SlackRig.GRACE, rig.slack.options().teamId(), SlackRig.REJECT);
        List<RecordedRequest> decisions = awaitDecisions(rig, 1);
        assertThat(decisions).as("the member's decision, and only it").hasSize(1);
        assertThat(approved(decisions.get(0))).isFalse();
        assertThat(SlackApprovals.told(rig, OUTSIDER)).hasSize(3)
                .allSatisfy(c -> assertThat(c.param("channel")).isEqualTo(SlackRig.CHANNEL))
                .allSatisfy(c -> assertThat(c.param("thread_ts")).isEqualTo(m.ts()));
    }

    /** Until the outsider has been told {@code n} times: each refusal is handled before the next event. */
    private void await(int n) {
        org.awaitility.Awaitility.await().until(() -> SlackApprovals.told(rig, OUTSIDER).size() >= n);
    }
}
