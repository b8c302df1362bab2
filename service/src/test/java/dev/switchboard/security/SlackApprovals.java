package dev.switchboard.security;

import static org.awaitility.Awaitility.await;

import dev.switchboard.chat.slack.SlackRig;
import dev.switchboard.protocol.kagent.Hitl;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.slack.SlackCall;
import dev.switchboard.testkit.slack.SlackMessage;
import java.util.List;

/** What the Slack approval tests look at: the decisions the agent was sent, and what a person alone was told. */
final class SlackApprovals {

    private SlackApprovals() {}

    /** The tool-approval answers the agent received, in order. */
    static List<RecordedRequest> decisions(SlackRig rig) {
        return rig.recorder.rpcRequests().stream().filter(RecordedRequest::isSend)
                .filter(s -> s.metadata() != null && s.metadata().has(Hitl.URI)).toList();
    }

    static boolean approved(RecordedRequest decision) {
        return decision.metadata().path(Hitl.URI).path("approvals").get(0).path("approved").asBoolean();
    }

    /** The ephemeral messages shown to {@code user}, once there is one containing {@code words}. */
    static SlackCall awaitToldOnly(SlackRig rig, String user, String words) {
        await().until(() -> told(rig, user).stream().anyMatch(c -> c.param("text").contains(words)));
        return told(rig, user).stream().filter(c -> c.param("text").contains(words)).findFirst().orElseThrow();
    }

    static List<SlackCall> told(SlackRig rig, String user) {
        return rig.slack.calls("chat.postEphemeral").stream().filter(c -> user.equals(c.param("user"))).toList();
    }

    /** The approval question of the thread, once it shows its Reject button. */
    static SlackMessage question(SlackRig rig, String threadTs) {
        return rig.awaitElement(threadTs, SlackRig.REJECT);
    }

    /** The question post's id, as its buttons carry it. */
    static String questionId(SlackMessage question) {
        return SlackRig.element(question, SlackRig.REJECT).orElseThrow().getString("value");
    }

    /** A click on {@code actionId} of the question by {@code user} of team {@code team}. */
    static void click(SlackRig rig, SlackMessage question, String threadTs, String user, String team, String actionId) {
        rig.deliverInteraction(rig.buttonClick(question, threadTs, user, team, actionId, questionId(question)));
    }

    /** Waits until the agent has received {@code n} decisions. */
    static List<RecordedRequest> awaitDecisions(SlackRig rig, int n) {
        await().until(() -> decisions(rig).size() >= n);
        return decisions(rig);
    }
}
