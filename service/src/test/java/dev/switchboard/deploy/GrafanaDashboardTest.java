package dev.switchboard.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgentOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/grafana-dashboard.json queries only what Switchboard exports: a real server, after a gateway call, a
 * gateway stream and a chat turn, is scraped, and every metric every panel's query names must be a series of that scrape, with every
 * label the query matches on or groups by. A renamed meter (or a typo in the dashboard) fails here.
 */
@ServerTest
class GrafanaDashboardTest {

    static final Path DASHBOARD = Path.of("..", "deploy", "grafana-dashboard.json");
    /** The metric families the dashboard may name: ours and the process's standard ones (docs/operations.md). */
    private static final Pattern METRIC = Pattern.compile("\\b((?:switchboard|process|jvm)_[a-z0-9_]+)\\b(\\{[^}]*\\})?");
    private static final Pattern GROUPING = Pattern.compile("\\b(?:by|without)\\s*\\(([^)]*)\\)");
    private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(?:=~|!~|!=|=)");
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})?\\s+\\S+", Pattern.MULTILINE);
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"");

    @TempDir
    Path dir;

    @Test
    void everyQueryNamesAMetricAndLabelsTheServerExports() throws Exception {
        List<String> exprs = exprs(new ObjectMapper().readTree(Files.readString(DASHBOARD)));
        assertThat(exprs).as("the dashboard's queries").hasSizeGreaterThan(10);

        try (SwitchboardFixture sb = SwitchboardFixture.builder()
                .agent("echo", TestAgentOptions.echo("echo"))
                .yaml(agents -> ConfigYaml.server(dir.resolve("dash.db"), false, ConfigYaml.QUICK_CONTRACT)
                        .webAgent("echo", agents.url("echo"), false))
                .start()) {
            SwitchboardApp app = sb.app();
            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> call = http.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + "/a2a/echo"))
                    .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("""
                            {"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message",
                            "messageId":"m1","role":"user","parts":[{"kind":"text","text":"hello"}]}}}""")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(call.statusCode()).as(call.body()).isEqualTo(200);
            assertThat(call.body()).as("a relayed reply").contains("\"result\"");
            // a stream registers the open-streams gauge
            HttpResponse<String> stream = http.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + "/a2a/echo"))
                    .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                    .header("Accept", "text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString("""
                            {"jsonrpc":"2.0","id":2,"method":"message/stream","params":{"message":{"kind":"message",
                            "messageId":"m2","role":"user","parts":[{"kind":"text","text":"hello"}]}}}""")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(stream.statusCode()).as(stream.body()).isEqualTo(200);
            assertThat(stream.body()).as("a relayed stream").startsWith("data:");
            ChatApi chat = new ChatApi(app.baseUrl());
            ChatApi.Sent sent = chat.newThread("echo", "hello");
            chat.awaitPosts(sent.threadId(), "the turn finished", Duration.ofSeconds(30),
                    posts -> ChatApi.FINAL.contains(chat.userPost(sent.threadId(), sent.messageId()).state()));

            Awaitility.await("every metric the dashboard names in /metrics").untilAsserted(() -> {
                Map<String, Set<String>> exported = labelsByName(scrape(http, app));
                List<String> missing = new ArrayList<>();
                for (String expr : exprs) {
                    Matcher m = METRIC.matcher(expr);
                    Set<String> named = new TreeSet<>();
                    while (m.find()) {
                        String name = m.group(1);
                        named.add(name);
                        if (!exported.containsKey(name)) {
                            missing.add(name + " (in " + expr + ")");
                            continue;
                        }
                        if (m.group(2) != null) {
                            Matcher l = MATCHER.matcher(m.group(2));
                            while (l.find()) {
                                if (!exported.get(name).contains(l.group(1))) {
                                    missing.add(name + " has no label " + l.group(1) + " (in " + expr + ")");
                                }
                            }
                        }
                    }
                    assertThat(named).as("a query that names none of our metrics: " + expr).isNotEmpty();
                    Matcher g = GROUPING.matcher(expr);
                    while (g.find()) {
                        for (String label : g.group(1).split(",")) {
                            String l = label.strip();
                            boolean somewhere = l.equals("instance") // Prometheus adds it at scrape
                                    || named.stream().anyMatch(n -> exported.containsKey(n) && exported.get(n).contains(l));
                            if (!somewhere) {
                                missing.add("no metric of " + named + " has the label " + l + " (in " + expr + ")");
                            }
                        }
                    }
                }
                assertThat(missing).as("what the dashboard queries and the server does not export").isEmpty();
            });
        }
    }

    @Test
    void theDashboardIsOneGrafanaDashboardOnAPrometheusDatasource() throws Exception {
        JsonNode d = new ObjectMapper().readTree(Files.readString(DASHBOARD));
        assertThat(d.path("uid").asText()).isEqualTo("switchboard");
        assertThat(d.path("templating").path("list").findValuesAsText("type")).contains("datasource");
        Set<Integer> ids = new TreeSet<>();
        for (JsonNode p : d.path("panels")) {
            assertThat(ids.add(p.path("id").asInt())).as("panel ids are unique").isTrue();
            if (!p.path("type").asText().equals("row")) {
                assertThat(p.path("datasource").path("type").asText()).as(p.path("title").asText()).isEqualTo("prometheus");
                assertThat(p.path("targets")).as(p.path("title").asText()).isNotEmpty();
            }
        }
    }

    private static List<String> exprs(JsonNode dashboard) {
        List<String> out = new ArrayList<>();
        for (JsonNode target : dashboard.findValues("targets")) {
            for (JsonNode t : target) {
                out.add(t.path("expr").asText());
            }
        }
        for (JsonNode v : dashboard.path("templating").path("list")) {
            if (v.path("type").asText().equals("query")) {
                out.add(v.path("query").asText());
            }
        }
        return out;
    }

    /** Metric name to every label any of its series carries; a histogram's _bucket, _count and _sum are their own. */
    private static Map<String, Set<String>> labelsByName(String scrape) {
        Map<String, Set<String>> out = new HashMap<>();
        Matcher m = SAMPLE.matcher(scrape);
        while (m.find()) {
            Set<String> labels = out.computeIfAbsent(m.group(1), k -> new TreeSet<>());
            if (m.group(2) != null) {
                LABEL.matcher(m.group(2)).results().forEach(r -> labels.add(r.group(1)));
            }
        }
        return out;
    }

    private static String scrape(HttpClient http, SwitchboardApp app) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + "/metrics"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return r.body();
    }
}
