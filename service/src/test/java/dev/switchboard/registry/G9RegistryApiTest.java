package dev.switchboard.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * G9: the registry API at KubeMQ's paths — register (validated field by field, idempotent, keeping
 * {@code registered_at}), list with {@code skill_tags} and {@code limit}, get, delete and deregister,
 * heartbeat; dynamic registrations expire after {@code registrationTtl} without a heartbeat while
 * config-file agents never do; registrations survive a restart; bad input is HTTP 400 naming the
 * field. Writes need the admin token when one is set.
 */
@ServerTest
class G9RegistryApiTest {

    @TempDir
    static Path dir;

    static Harness h;
    static TestAgent echo;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        echo = h.agent(TestAgentOptions.echo("echo"));
        h.backend("from-config", echo.url()).start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    static String registration(String id, String url, String... tags) {
        StringBuilder skills = new StringBuilder();
        for (int i = 0; i < tags.length; i++) {
            skills.append(i == 0 ? "" : ",").append("{\"id\":\"s").append(i).append("\",\"name\":\"Skill ").append(i)
                    .append("\",\"description\":\"d\",\"tags\":[\"").append(tags[i].replace(",", "\",\"")).append("\"]}");
        }
        return "{\"agent_id\":\"" + id + "\",\"name\":\"Agent " + id + "\",\"url\":\"" + url + "\",\"skills\":[" + skills + "]}";
    }

    private static Reply register(TestHttp http, String body, String... headers) {
        return http.post("/agents/register", body, headers);
    }

    @Test
    void g9_badInputIs400WithAJsonErrorNamingTheField() {
        String ok = "\"name\":\"n\",\"url\":\"http://127.0.0.1:1/\"";
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("{" + ok + "}", "agent_id");
        cases.put("{\"agent_id\":\"A\"," + ok + "}", "agent_id");
        cases.put("{\"agent_id\":\"MyAgent\"," + ok + "}", "agent_id");
        cases.put("{\"agent_id\":\"agent@1\"," + ok + "}", "agent_id");
        cases.put("{\"agent_id\":\"a\"," + ok + "}", "agent_id");
        cases.put("{\"agent_id\":7," + ok + "}", "agent_id");
        cases.put("{\"agent_id\":\"ok-id\",\"url\":\"http://127.0.0.1:1/\"}", "name");
        cases.put("{\"agent_id\":\"ok-id\",\"name\":\"\",\"url\":\"http://127.0.0.1:1/\"}", "name");
        cases.put("{\"agent_id\":\"ok-id\",\"name\":\"n\"}", "url");
        cases.put("{\"agent_id\":\"ok-id\",\"name\":\"n\",\"url\":\"/relative/path\"}", "url");
        cases.put("{\"agent_id\":\"ok-id\",\"name\":\"n\",\"url\":\"127.0.0.1:9999\"}", "url");
        cases.put("{\"agent_id\":\"ok-id\"," + ok + ",\"description\":5}", "description");
        cases.put("{\"agent_id\":\"ok-id\"," + ok + ",\"version\":[]}", "version");
        cases.put("{\"agent_id\":\"ok-id\"," + ok + ",\"skills\":\"echo\"}", "skills");
        cases.put("{\"agent_id\":\"ok-id\"," + ok + ",\"skills\":[{\"name\":\"no id\"}]}", "skills[0].id");
        cases.put("{\"agent_id\":\"ok-id\"," + ok + ",\"skills\":[{\"id\":\"s\",\"tags\":\"t\"}]}", "skills[0].tags");
        cases.put("{\"agent_id\":\"ok-id\"," + ok + ",\"defaultInputModes\":\"text\"}", "defaultInputModes");
        cases.put("{\"agent_id\":\"ok-id\"," + ok + ",\"defaultOutputModes\":[1]}", "defaultOutputModes");
        cases.put("{\"agent_id\":\"ok-id\"," + ok + ",\"protocolVersions\":{}}", "protocolVersions");
        cases.put("not json", "body");
        cases.put("[1,2]", "body");
        cases.put("", "body");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Reply reply = register(h.http(), c.getKey());
            assertThat(reply.status()).as(c.getKey()).isEqualTo(400);
            JsonNode error = reply.json();
            assertThat(error.path("field").asText()).as(c.getKey()).startsWith(c.getValue());
            assertThat(error.path("error").asText()).as(c.getKey()).contains(c.getValue());
        }
        assertThat(h.http().get("/agents/ok-id").status()).isEqualTo(404);
    }

    @Test
    void g9_registerFillsDefaultsAndReRegisteringKeepsRegisteredAt() {
        Reply first = register(h.http(), "{\"agent_id\":\"idem\",\"name\":\"First\",\"url\":\"" + echo.url() + "\"}");
        assertThat(first.status()).isEqualTo(200);
        JsonNode a = first.json();
        assertThat(a.path("agent_id").asText()).isEqualTo("idem");
        assertThat(a.path("description").asText()).isEmpty();
        assertThat(a.path("version").asText()).isEmpty();
        assertThat(a.path("skills").size()).isZero();
        assertThat(a.path("defaultInputModes").toString()).isEqualTo("[\"text\"]");
        assertThat(a.path("defaultOutputModes").toString()).isEqualTo("[\"text\"]");
        assertThat(a.path("protocolVersions").toString()).isEqualTo("[\"1.0\"]");
        Instant registeredAt = Instant.parse(a.path("registered_at").asText());
        Instant lastSeen = Instant.parse(a.path("last_seen").asText());
        await().until(() -> Instant.now().isAfter(lastSeen.plusMillis(5)));

        Reply again = register(h.http(), "{\"agent_id\":\"idem\",\"name\":\"Second\",\"url\":\"" + echo.url()
                + "\",\"description\":\"now described\",\"version\":\"2.0\"}");

        assertThat(again.status()).isEqualTo(200);
        JsonNode b = h.http().get("/agents/idem").json();
        assertThat(Instant.parse(b.path("registered_at").asText())).isEqualTo(registeredAt);
        assertThat(Instant.parse(b.path("last_seen").asText())).isAfter(lastSeen);
        assertThat(b.path("name").asText()).isEqualTo("Second");
        assertThat(b.path("description").asText()).isEqualTo("now described");
        assertThat(b.path("version").asText()).isEqualTo("2.0");
        assertThat(agentIds(h.http().get("/agents").json()).stream().filter("idem"::equals)).hasSize(1);
    }

    @Test
    void g9_listFiltersBySkillTagsAndLimit() {
        register(h.http(), registration("tag-a", echo.url(), "alpha,shared"));
        register(h.http(), registration("tag-b", echo.url(), "beta", "shared"));
        register(h.http(), registration("tag-c", echo.url(), "gamma"));
        register(h.http(), registration("tag-none", echo.url()));

        assertThat(agentIds(h.http().get("/agents?skill_tags=alpha").json())).containsExactly("tag-a");
        assertThat(agentIds(h.http().get("/agents?skill_tags=shared").json())).containsExactly("tag-a", "tag-b");
        assertThat(agentIds(h.http().get("/agents?skill_tags=gamma,alpha").json())).containsExactly("tag-a", "tag-c");
        assertThat(agentIds(h.http().get("/agents?skill_tags=nothing-has-this").json())).isEmpty();
        assertThat(agentIds(h.http().get("/agents?skill_tags=shared,gamma&limit=2").json())).hasSize(2);
        assertThat(agentIds(h.http().get("/agents?limit=1").json())).hasSize(1);
        List<String> all = agentIds(h.http().get("/agents").json());
        assertThat(all).contains("from-config", "tag-a", "tag-b", "tag-c", "tag-none");
        JsonNode tagA = h.http().get("/agents/tag-a").json();
        assertThat(tagA.path("skills").get(0).path("tags").toString()).isEqualTo("[\"alpha\",\"shared\"]");

        Reply badLimit = h.http().get("/agents?limit=0");
        assertThat(badLimit.status()).isEqualTo(400);
        assertThat(badLimit.json().path("field").asText()).isEqualTo("limit");
        assertThat(h.http().get("/agents?limit=many").json().path("field").asText()).isEqualTo("limit");
    }

    @Test
    void g9_getDeleteAndDeregister() {
        register(h.http(), registration("gone-by-delete", echo.url(), "x"));
        register(h.http(), registration("gone-by-body", echo.url(), "x"));

        Reply got = h.http().get("/agents/gone-by-delete");
        assertThat(got.status()).isEqualTo(200);
        assertThat(got.json().path("url").asText()).isEqualTo(echo.url());
        assertThat(got.json().path("name").asText()).isEqualTo("Agent gone-by-delete");

        assertThat(h.http().delete("/agents/gone-by-delete").status()).isEqualTo(200);
        assertThat(h.http().get("/agents/gone-by-delete").status()).isEqualTo(404);
        assertThat(h.http().delete("/agents/gone-by-delete").status()).isEqualTo(404);

        assertThat(h.http().post("/agents/deregister", "{\"agent_id\":\"gone-by-body\"}").status()).isEqualTo(200);
        assertThat(h.http().get("/agents/gone-by-body").status()).isEqualTo(404);
        Reply unknown = h.http().post("/agents/deregister", "{\"agent_id\":\"gone-by-body\"}");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.json().path("error").asText()).contains("agent not found");

        // and the gateway no longer routes to it
        assertThat(h.http().rpc("gone-by-body", Rpc.send(1, "x")).errorCode()).isEqualTo(-32002);
        assertThat(h.http().get("/agents/never-registered").status()).isEqualTo(404);
    }

    @Test
    void g9_heartbeatUpdatesLastSeenAndAnUnknownAgentIs400() {
        JsonNode registered = register(h.http(), registration("beating", echo.url(), "x")).json();
        Instant lastSeen = Instant.parse(registered.path("last_seen").asText());
        await().until(() -> Instant.now().isAfter(lastSeen.plusMillis(5)));

        Reply beat = h.http().post("/agents/heartbeat", "{\"agent_id\":\"beating\"}");

        assertThat(beat.status()).isEqualTo(200);
        assertThat(beat.json().path("agent_id").asText()).isEqualTo("beating");
        Instant beatAt = Instant.parse(beat.json().path("last_seen").asText());
        assertThat(beatAt).isAfter(lastSeen);
        JsonNode after = h.http().get("/agents/beating").json();
        assertThat(Instant.parse(after.path("last_seen").asText())).isEqualTo(beatAt);
        assertThat(after.path("registered_at").asText()).isEqualTo(registered.path("registered_at").asText());

        Reply unknown = h.http().post("/agents/heartbeat", "{\"agent_id\":\"no-such-agent\"}");
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.json().path("error").asText()).contains("agent not found");
        Reply noId = h.http().post("/agents/heartbeat", "{}");
        assertThat(noId.status()).isEqualTo(400);
        assertThat(noId.json().path("field").asText()).isEqualTo("agent_id");
    }

    @Test
    void g9_aRegisteredAgentIsRoutedByTheGateway() {
        register(h.http(), registration("registered-echo", echo.url(), "x"));
        echo.recorder().clear();

        Reply reply = h.http().rpc("registered-echo", Rpc.send(1, "via the registry"));

        assertThat(reply.json().path("result").path("status").path("state").asText()).isEqualTo("completed");
        assertThat(echo.recorder().rpcMethods()).containsExactly("message/send");
    }

    @Test
    void g9_dynamicRegistrationsExpireAfterTheTtlConfigAgentsNever(@TempDir Path ttlDir) {
        assertThat(dev.switchboard.config.ServerSpec.defaults().registrationTtl()).isEqualTo(Duration.ofSeconds(90));
        try (Harness ttl = new Harness(ttlDir)) {
            TestAgent agent = ttl.agent(TestAgentOptions.echo("ttl"));
            ttl.registrationTtl(Duration.ofSeconds(2)).backend("configured", agent.url()).start();
            TestHttp http = ttl.http();
            register(http, registration("fleeting", agent.url(), "x"));
            register(http, registration("kept-alive", agent.url(), "x"));
            assertThat(http.get("/agents/fleeting").status()).isEqualTo(200);

            // kept-alive heartbeats every 200 ms (the 2 s TTL leaves a loaded machine room for late beats)
            // and stays past fleeting's expiry for 2.5 s more, longer than a TTL
            await().pollInterval(Duration.ofMillis(200))
                    .until(() -> http.post("/agents/heartbeat", "{\"agent_id\":\"kept-alive\"}").status() == 200
                            && http.get("/agents/fleeting").status() == 404);
            await().during(Duration.ofMillis(2500)).pollInterval(Duration.ofMillis(200))
                    .until(() -> http.post("/agents/heartbeat", "{\"agent_id\":\"kept-alive\"}").status() == 200);

            assertThat(http.rpc("fleeting", Rpc.send(1, "x")).errorMessage()).isEqualTo("agent not found: fleeting");
            assertThat(http.get("/agents/configured").status()).isEqualTo(200);
            assertThat(http.get("/agents/configured").json().path("source").asText()).isEqualTo("config");
            assertThat(http.rpc("configured", Rpc.send(2, "still here")).json().has("result")).isTrue();
            // once the heartbeats stop, kept-alive goes too
            await().until(() -> http.get("/agents/kept-alive").status() == 404);
            assertThat(http.get("/agents/configured").status()).isEqualTo(200);
        }
    }

    @Test
    void g9_registrationsSurviveARestart(@TempDir Path restartDir) {
        try (Harness r = new Harness(restartDir)) {
            TestAgent agent = r.agent(TestAgentOptions.echo("durable"));
            r.start();
            JsonNode before = register(r.http(), registration("durable", agent.url(), "keep,me")).json();

            r.restart();

            Reply after = r.http().get("/agents/durable");
            assertThat(after.status()).isEqualTo(200);
            assertThat(after.json().path("registered_at").asText()).isEqualTo(before.path("registered_at").asText());
            assertThat(after.json().path("url").asText()).isEqualTo(agent.url());
            assertThat(after.json().path("skills").get(0).path("tags").toString()).isEqualTo("[\"keep\",\"me\"]");
            assertThat(agentIds(r.http().get("/agents?skill_tags=me").json())).containsExactly("durable");
            assertThat(r.http().rpc("durable", Rpc.send(1, "after the restart")).json().has("result")).isTrue();
        }
    }

    @Test
    void g9_writesNeedTheAdminTokenWhenOneIsSet(@TempDir Path adminDir) {
        try (Harness a = new Harness(adminDir)) {
            TestAgent agent = a.agent(TestAgentOptions.echo("admin"));
            a.adminToken("admin-token-g9").start();
            TestHttp http = a.http();
            String body = registration("guarded", agent.url(), "x");

            assertThat(register(http, body).status()).isEqualTo(401);
            assertThat(register(http, body, "Authorization", "Bearer wrong").status()).isEqualTo(401);
            assertThat(http.get("/agents/guarded").status()).isEqualTo(404);
            assertThat(register(http, body, "Authorization", "Bearer admin-token-g9").status()).isEqualTo(200);

            assertThat(http.post("/agents/heartbeat", "{\"agent_id\":\"guarded\"}").status()).isEqualTo(401);
            assertThat(http.post("/agents/deregister", "{\"agent_id\":\"guarded\"}").status()).isEqualTo(401);
            assertThat(http.delete("/agents/guarded").status()).isEqualTo(401);
            // reads stay open (no API keys configured)
            assertThat(http.get("/agents").status()).isEqualTo(200);
            assertThat(http.get("/agents/guarded").status()).isEqualTo(200);

            assertThat(http.post("/agents/heartbeat", "{\"agent_id\":\"guarded\"}", "Authorization", "Bearer admin-token-g9")
                    .status()).isEqualTo(200);
            assertThat(http.delete("/agents/guarded", "Authorization", "Bearer admin-token-g9").status()).isEqualTo(200);
        }
    }

    static List<String> agentIds(JsonNode list) {
        JsonNode agents = list.isArray() ? list : list.path("agents");
        List<String> ids = new ArrayList<>();
        agents.forEach(a -> ids.add(a.path("agent_id").asText()));
        return ids;
    }
}
