package dev.switchboard.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.cli.Main;
import dev.switchboard.protocol.Json;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code switchboard check} as a command: its exit codes, its text and its JSON document. */
@ServerTest
class CheckCommandTest {

    static SwitchboardFixture agents;
    static TestAgent good;
    static TestAgent bad;

    @BeforeAll
    static void start() {
        agents = SwitchboardFixture.builder()
                .agent("good", WellBehavedAgentCheckTest.wellBehaved())
                .agent("bad", TestAgentOptions.echo("bad").withDefaultBehavior("/newcontext"))
                .agentsOnly().start();
        good = agents.agent("good");
        bad = agents.agent("bad");
    }

    @AfterAll
    static void stop() {
        agents.close();
    }

    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new Main());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of("check"));
        all.addAll(List.of(args));
        int code = cli.execute(all.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void anAgentThatKeepsTheContractExitsZeroWithOneLinePerRow() {
        Run r = run(good.url(), "--quick");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("switchboard check " + good.url() + " (a2a, A2A 1.0)");
        assertThat(lines.subList(1, lines.size() - 1)).hasSize(RowId.values().length - 1)
                .allMatch(l -> l.matches("(PASS|SKIP)  [a-z0-9.-]+ +\\S.*"));
        assertThat(lines.get(lines.size() - 1)).startsWith("20 PASS, 0 FAIL, 0 WARN, 1 SKIP in ");
    }

    @Test
    void aFailingRowExitsOneAndJsonSaysTheSame() throws Exception {
        Run r = run(bad.url(), "--quick", "--json");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
        JsonNode doc = Json.parse(r.out());
        assertThat(doc.path("exitCode").asInt()).isEqualTo(1);
        assertThat(doc.path("endpoint").asText()).isEqualTo(bad.url());
        assertThat(doc.path("dialect").asText()).isEqualTo("a2a");
        assertThat(doc.path("version").asText()).isEqualTo("1.0");
        assertThat(doc.path("error").isNull()).isTrue();
        assertThat(doc.path("counts").path("FAIL").asInt()).isEqualTo(1);
        assertThat(doc.path("rows")).hasSize(RowId.values().length - 1);
        JsonNode keeps = null;
        for (JsonNode row : doc.path("rows")) {
            assertThat(row.path("verdict").asText()).isIn("PASS", "FAIL", "WARN", "SKIP");
            assertThat(row.path("reason").asText()).isNotBlank();
            if (row.path("id").asText().equals("replies.keeps-context")) {
                keeps = row;
            }
        }
        assertThat(keeps).isNotNull();
        assertThat(keeps.path("verdict").asText()).isEqualTo("FAIL");
        assertThat(keeps.path("reason").asText()).contains("The agent no longer has this conversation");
    }

    @Test
    void anAgentThatCannotBeReachedExitsTwo() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        Run r = run("http://127.0.0.1:" + port + "/", "--quick");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).contains("could not run: could not connect to http://127.0.0.1:" + port
                + "/.well-known/agent-card.json");
        Run json = run("http://127.0.0.1:" + port + "/", "--quick", "--json");
        assertThat(json.code()).isEqualTo(2);
        JsonNode doc = Json.parse(json.out());
        assertThat(doc.path("exitCode").asInt()).isEqualTo(2);
        assertThat(doc.path("error").asText()).contains("could not connect");
        assertThat(doc.path("rows")).isEmpty();
    }

    @Test
    void aCardThatIsNotThereFailsDiscoveryCard() {
        Run r = run(good.url() + "nowhere/", "--quick");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).containsPattern("FAIL  discovery\\.card +GET " + good.url()
                + "nowhere/\\.well-known/agent-card\\.json → HTTP 40\\d: the card fetch fails");
    }

    @Test
    void badArgumentsExitTwoAndSayWhatIsWrong() {
        Run noUrl = run("--quick");
        assertThat(noUrl.code()).isEqualTo(2);
        assertThat(noUrl.err()).contains("Missing required parameter: 'URL'");

        Run dialect = run(good.url(), "--dialect", "kagent");
        assertThat(dialect.code()).isEqualTo(2);
        assertThat(dialect.err()).contains("--dialect must be a2a or kagent-v1, not kagent");

        Run ref = run(good.url(), "--dialect", "kagent-v1");
        assertThat(ref.code()).isEqualTo(2);
        assertThat(ref.err()).contains("--dialect kagent-v1 needs --agent-ref NAMESPACE/NAME");

        Run version = run(good.url(), "--version", "2.0");
        assertThat(version.code()).isEqualTo(2);
        assertThat(version.err()).contains("--version must be 1.0 or 0.3, not 2.0");

        Run header = run(good.url(), "--header", "Authorization: Bearer hunter2");
        assertThat(header.code()).isEqualTo(2);
        assertThat(header.err()).contains("--header must be K=V").doesNotContain("hunter2");

        Run url = run("ftp://example.com/agent");
        assertThat(url.code()).isEqualTo(2);
        assertThat(url.err()).contains("URL must be an http:// or https:// URL");
    }

    @Test
    void argumentErrorsAreAJsonDocumentToo() throws Exception {
        Run r = run(good.url(), "--json", "--agent-ref", "default/sre");
        assertThat(r.code()).isEqualTo(2);
        JsonNode doc = Json.parse(r.out());
        assertThat(doc.path("exitCode").asInt()).isEqualTo(2);
        assertThat(doc.path("error").asText()).isEqualTo("--agent-ref applies to --dialect kagent-v1 only");
        assertThat(doc.path("rows")).isEmpty();
    }

    @Test
    void theHiddenSilenceLimitSetsTheIntervalTheLongTaskRowJudges() {
        // not a user option (hidden from --help): tests inject a short interval instead of the seed's 5 minutes
        Run r = run(good.url(), "--silence-limit", "20s");
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).containsPattern("SKIP  replies\\.event-every-5-minutes +every task finished within .*, before 20\\.0 s");
        assertThat(run("--help").out()).doesNotContain("silence-limit");
        assertThat(run("--help").out()).contains("--quick", "--json", "--agent-ref", "--token");
    }

    @Test
    void versionForcesTheWireVersion() {
        Run r = run(good.url(), "--quick", "--version", "0.3");
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).contains("(a2a, A2A 0.3)").contains("message/stream(messageId");
    }
}
