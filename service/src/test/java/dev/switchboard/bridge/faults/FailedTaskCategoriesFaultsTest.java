package dev.switchboard.bridge.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bridge.support.ChatApi.Post;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgentOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * B12: a failed task posts "The agent's task failed." with the category its status message or its
 * metadata code names — context limit, rate limit, authentication, timeout, permission — and never the
 * agent's own words. Also the other ends of a task: rejected and canceled post a notice.
 */
@ServerTest
class FailedTaskCategoriesFaultsTest extends FaultTest {

    /** directive → the notice the thread must show. */
    private static final List<String[]> CASES = List.of(
            new String[] {"/fail context_length_exceeded too long by 5000 units", "context limit"},
            new String[] {"/fail E17 This model's maximum context length is 8192", "context limit"},
            new String[] {"/fail 429 slow down, friend", "rate limit"},
            new String[] {"/fail E18 Quota for project p-88 used up", "rate limit"},
            new String[] {"/fail UNAUTHENTICATED key sk-live-123 expired", "authentication"},
            new String[] {"/fail E19 Invalid API key sk-live-456", "authentication"},
            new String[] {"/fail DEADLINE_EXCEEDED tool call ran 600s", "timeout"},
            new String[] {"/fail E20 the upstream request timed out after 600s", "timeout"},
            new String[] {"/fail PERMISSION_DENIED role viewer on ns prod", "permission"},
            new String[] {"/fail E21 403 on bucket secret-plans", "permission"},
            new String[] {"/fail E22 something odd happened to widget 9", null});

    @Override
    FaultBridge.Builder agents(FaultBridge.Builder builder) {
        return builder.agent("failing", TestAgentOptions.echo("failing"));
    }

    @Test
    void aFailedTaskIsToldWithItsCategoryAndNeverWithTheAgentsWords() {
        List<Sent> sent = CASES.stream().map(c -> chat.newThread("failing", c[0])).toList();
        for (int i = 0; i < CASES.size(); i++) {
            String[] c = CASES.get(i);
            Sent s = sent.get(i);
            Post post = chat.awaitFinal(s);
            assertThat(post.state()).as(c[0]).isEqualTo("failed");
            String expected = c[1] == null ? "The agent's task failed." : "The agent's task failed. Reason: " + c[1] + ".";
            assertThat(chat.notices(s.threadId(), s.messageId())).as(c[0]).containsExactly(expected);
            String agentWords = c[0].substring(c[0].indexOf(' ', 6) + 1);
            assertThat(chat.posts(s.threadId())).as(c[0]).filteredOn(p -> !p.isUser()).extracting(Post::text)
                    .noneMatch(t -> t.contains(agentWords));
        }
    }

    @Test
    void rejectedAndCanceledEndTheTurnWithANotice() {
        Sent rejected = chat.newThread("failing", "/reject");
        assertThat(chat.awaitFinal(rejected).state()).isEqualTo("rejected");
        assertThat(chat.notices(rejected.threadId(), rejected.messageId())).containsExactly("The agent rejected the task.");
    }
}
