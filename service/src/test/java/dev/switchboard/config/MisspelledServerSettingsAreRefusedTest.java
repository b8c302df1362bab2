package dev.switchboard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The threat: an operator misspells a setting of the Server resource (or a Secret) and the service starts with the
 * default in its place, silently (a timeout, a limit, a proxy trust that is not the one written). Every kind refuses
 * a field it does not know, naming its path, with the closest known name when there is one.
 */
class MisspelledServerSettingsAreRefusedTest {

    private static final ConfigLoader LOADER = new ConfigLoader(Map.of());

    private static String server(String spec) {
        return """
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                  listen: 127.0.0.1:0
                %s
                """.formatted(spec);
    }

    private static void refused(String config, String field, String hint) {
        assertThatThrownBy(() -> LOADER.parse(config, "c.yaml")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("(Server")
                .hasMessageContaining(": " + field + ": unknown field")
                .hasMessageContaining(hint == null ? "unknown field" : "did you mean '" + hint + "'?");
    }

    @Test
    void aMisspelledTopLevelSettingIsRefusedWithTheNameItMeant() {
        refused(server("  htpp: {maxConnections: 10}"), "spec.htpp", "http");
        assertThatThrownBy(() -> LOADER.parse(server("  htpp: {maxConnections: 10}"), "c.yaml"))
                .hasMessageContaining("expected one of listen,");
    }

    @Test
    void aMisspelledNestedSettingIsRefusedWithItsPath() {
        refused(server("  contract: {giveupAfter: 10m}"), "spec.contract.giveupAfter", "giveUpAfter");
        refused(server("  http: {idleTimout: 5s}"), "spec.http.idleTimout", "idleTimeout");
        refused(server("  gateway: {maxRequestByte: 1000}"), "spec.gateway.maxRequestByte", "maxRequestBytes");
        refused(server("  webChat: {trustedProxy: [10.0.0.0/8]}"), "spec.webChat.trustedProxy", "trustedProxies");
        refused(server("  webChat: {defaultUser: {mail: a@example.com}}"), "spec.webChat.defaultUser.mail", "email");
        refused(server("  registry: {allowedHost: [10.0.0.0/8]}"), "spec.registry.allowedHost", "allowedHosts");
        refused(server("  tracing: {otlpEndpont: \"http://c:4318\"}"), "spec.tracing.otlpEndpont", "otlpEndpoint");
        refused(server("  bridge: {leaseDuraton: 30s}"), "spec.bridge.leaseDuraton", "leaseDuration");
        refused(server("  apiKeys: [{name: ci, kee: \"0123456789abcdef\"}]"), "spec.apiKeys[0].kee", "key");
        refused(server("  storePasswordSecretRef: {name: s, keys: k}"), "spec.storePasswordSecretRef.keys", "key");
        refused(server("  ops: {lisen: 127.0.0.1:9090}"), "spec.ops.lisen", "listen");
        refused(server("  colour: blue"), "spec.colour", null);
    }

    @Test
    void aWrongTypeInTheServerIsRefusedWithoutShowingASecret() {
        assertThatThrownBy(() -> LOADER.parse(server("  adminToken: 1234567890123456789"), "c.yaml"))
                .hasMessageContaining("spec.adminToken: must be a string")
                .hasMessageNotContaining("1234567890123456789");
        assertThatThrownBy(() -> LOADER.parse(server("  http: 30s"), "c.yaml"))
                .hasMessageContaining("spec.http: must be a mapping");
    }

    @Test
    void aMisspelledFieldOfASecretIsRefused() {
        String secret = """
                apiVersion: v1
                kind: Secret
                metadata: {name: s}
                stringdata: {password: x}
                """;
        assertThatThrownBy(() -> LOADER.parse(secret, "c.yaml")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("(Secret s): stringdata: unknown field")
                .hasMessageContaining("did you mean 'stringData'?");
        assertThat(LOADER.parse(secret.replace("stringdata", "stringData") + "type: Opaque\n", "c.yaml").secrets())
                .containsKey("s");
    }

    @Test
    void everySettingTheLoaderReadsIsKnown() throws IOException {
        SwitchboardConfig c = LOADER.parse(FULL, "full.yaml");
        assertThat(c.server().http().maxConnections()).isEqualTo(100);
        assertThat(c.bridge().contract().giveUpAfter()).hasMinutes(10);
        assertThat(c.bridge().limits().leaseDuration()).hasSeconds(30);
        assertThat(c.server().ops()).isEqualTo(new OpsListen("127.0.0.1", 9090));
        assertThat(c.server().mcp().toolsPerSkill()).isTrue();
        assertThat(c.server().mcp().maxSessions()).isEqualTo(50);
        assertThat(c.server().registry().probeInterval()).hasSeconds(10);
        assertThat(LOADER.parse(FULL.replace("jwksUri: \"https://login.example.com/jwks.json\"",
                "jwks: '{\"keys\":[]}'"), "full.yaml").server()).isNotNull();
        // and the description lists nothing this document does not set: the two are the same list
        com.fasterxml.jackson.databind.JsonNode server = new com.fasterxml.jackson.databind.ObjectMapper(
                new com.fasterxml.jackson.dataformat.yaml.YAMLFactory()).readTree(FULL.substring(0, FULL.indexOf("---")));
        for (String leaf : ResourceSchemaConformanceTest.leaves(ResourceSchemas.SERVER.spec(), "spec").keySet()) {
            if (leaf.equals("spec.auth.jwt[0].jwks")) {
                continue; // the other one of jwksUri | jwks: loaded below
            }
            assertThat(server.at("/" + leaf.replace("[0]", "/0").replace('.', '/'))
                    .isMissingNode()).as(leaf + " set by the full document").isFalse();
        }
    }

    private static final String FULL = """
            apiVersion: switchboard.dev/v1
            kind: Server
            metadata: {name: main}
            spec:
              listen: 127.0.0.1:0
              ops: {listen: "127.0.0.1:9090"}
              mcp: {enabled: true, toolsPerSkill: true, maxSessions: 50, sessionIdleTimeout: 10m}
              insecure: false
              publicUrl: https://switchboard.example.com
              hostNames: [switchboard.agents.svc]
              store: postgresql://db.internal:5432/switchboard?user=switchboard
              storePasswordSecretRef: {name: store, key: password}
              adminToken: an-admin-token-0123456789
              apiKeys: [{name: ci, key: an-api-key-0123456789}]
              auth:
                jwt: [{issuer: "https://login.example.com/", audiences: [switchboard],
                       jwksUri: "https://login.example.com/jwks.json", claimsToCaller: email}]
                callerJwt: {issuer: "https://switchboard.example.com", signingKeySecretRef: {name: store, key: jwk}}
              callerIdHeader: X-Caller
              compat: kubemq
              registrationTtl: 90s
              tracing: {otlpEndpoint: "http://c:4318", serviceName: sb, samplingRatio: 0.5}
              gateway: {maxRequestBytes: 1000, keepaliveInterval: 15s, connectTimeout: 10s, maxRequestBytesInFlight: 2000,
                        callerLimits: {rate: 10, burst: 20, perAgent: {rate: 2, burst: 4}, maxConcurrency: 8},
                        streamBuffer: {events: 100, bytes: 65536, age: 5m, tasks: 50, holdAfterDrop: 30s},
                        push: {maxAttempts: 5, firstRetry: 2s, maxRetryWait: 1m, timeout: 5s}}
              http: {headerReadTimeout: 10s, bodyReadTimeout: 30s, idleTimeout: 60s, maxConnections: 100,
                     shutdownGracePeriod: 20s}
              registry: {maxRegistrations: 10, allowedHosts: [10.0.0.0/8, "*.agents.svc.cluster.local"], probeInterval: 10s}
              webChat:
                trustForwardedUser: true
                trustedProxies: [10.0.0.0/8]
                defaultUser: {id: u1, name: Ada, email: ada@example.com}
              contract: {giveUpAfter: 10m, busyNoticeAfter: 30s, silenceLimit: 2m, noSignOfLife: 1m,
                         responseHeaders: 30s, settleDelay: 500ms, pollBackoffMax: 10s, retryBackoffMax: 10s,
                         retryAfterMax: 60s, cancelAttempts: 3}
              bridge: {maxQueuedTurns: 5, maxAnswerChars: 4000, sessionIdleTimeout: 1h, leaseDuration: 30s}
            ---
            apiVersion: v1
            kind: Secret
            metadata: {name: store}
            type: Opaque
            stringData: {password: pw, jwk: "{}"}
            """;

    @Test
    void theReadmesServerDocumentsStillLoad() throws IOException {
        String readme = dev.switchboard.RepositoryDocs.text(Path.of("..")); // README.md and docs/
        Matcher blocks = Pattern.compile("(?s)```yaml\\n(.*?)```").matcher(readme);
        List<String> servers = new ArrayList<>();
        while (blocks.find()) {
            if (blocks.group(1).contains("kind: Server")) {
                servers.add(dedent(blocks.group(1)));
            }
        }
        assertThat(servers).hasSizeGreaterThanOrEqualTo(2);
        ConfigLoader withEnv = new ConfigLoader(Map.of("SWITCHBOARD_ADMIN_TOKEN", "an-admin-token-0123456789",
                "CI_BOT_KEY", "an-api-key-0123456789", "ECHO_TOKEN", "t", "PGPASSWORD", "pw"));
        for (String s : servers) {
            withEnv.parse(s, "README.md");
        }
    }

    private static String dedent(String block) {
        int indent = block.lines().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length())
                .min().orElse(0);
        return block.lines().map(l -> l.length() >= indent ? l.substring(indent) : l.strip())
                .collect(Collectors.joining("\n"));
    }
}
