package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.chat.slack.SlackRig;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 28, who may act: a Binding's {@code allowedUsers} lets only the people it names (and the members of the
 * groups it names, not guests; never another organisation's people) start turns; anyone else is told so, to them
 * alone, and nothing reaches the agent.
 */
@ServerTest
class OnlyAllowedUsersMayStartTurnsTest {

    private static final String ON_CALL = "S0ONCALL1";
    private static final String GUEST_IN_GROUP = "U0GUEST01";
    private static final String MALLORY = "U0MALLORY";
    private static final String OUTSIDER = "U0OUTSIDE";

    @TempDir
    Path dir;
    @AutoClose
    SlackRig rig;

    private List<RecordedRequest> sends() {
        return rig.recorder.rpcRequests().stream().filter(RecordedRequest::isSend).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"events", "socket"})
    void onlyTheNamedPeopleAndTheirGroupsMembersStartTurns(String mode) {
        rig = SlackRig.echo(dir, mode, "allowedUsers: [" + SlackRig.ADA + ", " + ON_CALL + "]");
        rig.slack.addUser(MALLORY, "Mallory", "Mallory M", "mallory@example.com")
                .addGuest(GUEST_IN_GROUP, "Gus", false)
                .addExternalUser(OUTSIDER, "Olga", "T0OTHER01")
                .addUserGroup(ON_CALL, SlackRig.GRACE, GUEST_IN_GROUP);

        for (String refused : List.of(MALLORY, GUEST_IN_GROUP, OUTSIDER)) {
            rig.mention(refused, "let me in", null);
            await().until(() -> !SlackApprovals.told(rig, refused).isEmpty());
            assertThat(SlackApprovals.told(rig, refused).get(0).param("text")).contains("Nothing was sent to the agent");
        }
        assertThat(SlackApprovals.told(rig, MALLORY).get(0).param("text")).contains("can talk to this agent.");
        assertThat(SlackApprovals.told(rig, GUEST_IN_GROUP).get(0).param("text")).startsWith("Guests cannot talk");
        assertThat(SlackApprovals.told(rig, OUTSIDER).get(0).param("text")).startsWith("Only members of this Slack workspace");

        SlackRig.Sent ada = rig.mention(SlackRig.ADA, "named by id", null);
        SlackRig.Sent grace = rig.mention(SlackRig.GRACE, "in the group", null);
        await().until(() -> rig.botReplies(ada.ts()).stream().anyMatch(r -> r.text().contains("named by id")));
        await().until(() -> rig.botReplies(grace.ts()).stream().anyMatch(r -> r.text().contains("in the group")));
        assertThat(sends()).as("only the allowed people's turns reached the agent").hasSize(2);
        assertThat(sends()).allSatisfy(s -> assertThat(s.text()).doesNotContain("let me in"));
    }
}
