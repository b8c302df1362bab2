package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.RawAgent;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.testing.ServerTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threat: a caller claims an identity through a header its agent believes (issue 22, M4). Agents deployed
 * behind oauth2-proxy, an IAP, an ALB, Azure's App Service auth, Cloudflare Access or a KubeMQ gateway read
 * who the user is from that proxy's headers; the gateway is none of them, and passed every {@code X-} header
 * but a handful. Now every header of those families, and any {@code X-} header whose name speaks of a user,
 * an identity or a credential, stays with the gateway; A2A's own headers, the trace context and plain
 * {@code X-} headers ({@code X-Team}, {@code X-Request-Id}, {@code X-Custom-Header}) still reach the agent.
 */
@ServerTest
class IdentityHeadersNeverReachAgentsTest {

    /** What proxies in front of agents assert, and what credentials travel as. */
    static final List<String> IDENTITY_HEADERS = List.of(
            // oauth2-proxy, nginx auth_request, Pomerium, Vouch
            "X-Auth-Request-User", "X-Auth-Request-Email", "X-Auth-Request-Access-Token", "X-Auth-Request-Groups",
            "X-Forwarded-User", "X-Forwarded-Email", "X-Forwarded-Groups", "X-Forwarded-Access-Token",
            "X-Forwarded-Preferred-Username", "X-Pomerium-Jwt-Assertion", "X-Vouch-User",
            // Apache, Kerberos/SSO front ends, mTLS terminators
            "X-Remote-User", "X-Remote-Group", "X-Remote-Addr", "X-SSL-Client-Cert", "X-SSL-Client-DN",
            "X-Client-IP", "X-Client-Cert", "X-Client-Verify",
            // Google IAP, App Engine, Cloud Endpoints
            "X-Goog-Authenticated-User-Email", "X-Goog-Authenticated-User-Id", "X-Goog-IAP-JWT-Assertion",
            "X-Goog-Api-Key", "X-Appengine-User-Email", "X-Endpoint-API-UserInfo",
            // AWS ALB and API Gateway
            "X-Amzn-Oidc-Data", "X-Amzn-Oidc-Identity", "X-Amzn-Oidc-Accesstoken", "X-Amz-Security-Token",
            "X-Amz-Date", "X-Apigateway-Api-Userinfo",
            // Azure App Service / Front Door
            "X-MS-Client-Principal", "X-MS-Client-Principal-Name", "X-MS-Client-Principal-Id",
            "X-MS-Client-Principal-Idp", "X-MS-Token-AAD-Access-Token", "X-Ms-Token-Aad-Id-Token",
            // Cloudflare Access
            "CF-Access-Authenticated-User-Email", "CF-Access-Jwt-Assertion", "CF-Access-Client-Id",
            // KubeMQ's caller id, and generic ones
            "X-KubeMQ-Caller-ID", "X-Caller-Id", "X-User", "X-User-Id", "X-User-Email", "X-Username", "X-Userinfo",
            "X-Auth", "X-Auth-Token", "X-Authenticated-User", "X-Authorization", "X-Email", "X-Token",
            "X-Access-Token", "X-Id-Token", "X-Api-Key", "X-Jwt", "X-Identity", "X-Principal", "X-Credential",
            "X-Credentials", "X-Session-Id", "X-Session-Token", "X-Iap-User", "X-Oidc-Claims",
            // where the caller is, or what path a proxy saw
            "X-Forwarded-For", "X-Forwarded-Host", "X-Forwarded-Proto", "X-Original-URL", "X-Original-Forwarded-For",
            "X-Real-IP");

    /** Plain X- headers and the headers A2A and tracing need: still relayed. */
    static final List<String> PASSED = List.of("X-Team", "X-Request-Id", "X-Custom-Header", "X-Correlation-Id",
            "X-A2A-Extensions", "X-Tenant", "X-Priority", "X-Amzn-Trace-Id", "X-Cloud-Trace-Context", "A2A-Version",
            "A2A-Extensions", "traceparent", "tracestate");

    @TempDir
    static Path dir;

    static Harness h;
    static RawAgent agent;

    @BeforeAll
    static void start() {
        h = new Harness(dir);
        agent = h.raw(RawAgent.fixed(200, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"));
        h.backend("victim", agent.url()).start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    @Test
    void noIdentityHeaderReachesTheAgentAndPlainOnesStillDo() {
        List<String> headers = new ArrayList<>();
        for (String name : IDENTITY_HEADERS) {
            headers.add(name);
            headers.add("forged-" + name);
        }
        for (String name : PASSED) {
            headers.add(name);
            headers.add(name.equals("traceparent") ? "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
                    : name.startsWith("A2A-Version") ? "1.0" : "kept");
        }
        agent.clear();
        Reply reply = h.http().rpc("victim", Rpc.send(1, "hi"), headers.toArray(String[]::new));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        RawAgent.Exchange seen = agent.next();

        List<String> leaked = new ArrayList<>();
        for (String name : IDENTITY_HEADERS) {
            if (seen.header(name) != null) {
                leaked.add(name);
            }
        }
        assertThat(leaked).as("identity headers that reached the agent").isEmpty();
        for (String name : PASSED) {
            assertThat(seen.header(name)).as(name).isNotNull();
        }
        assertThat(seen.header("X-Switchboard-Caller-ID")).isEqualTo("127.0.0.1");
    }

    @Test
    void lowerCaseNamesAreDroppedToo() {
        agent.clear();
        h.http().rpc("victim", Rpc.send(1, "hi"), "x-auth-request-user", "admin", "x-goog-authenticated-user-email",
                "accounts.google.com:admin@example.com", "cf-access-authenticated-user-email", "admin@example.com",
                "x-team", "kept");
        RawAgent.Exchange seen = agent.next();
        assertThat(seen.header("X-Auth-Request-User")).isNull();
        assertThat(seen.header("X-Goog-Authenticated-User-Email")).isNull();
        assertThat(seen.header("CF-Access-Authenticated-User-Email")).isNull();
        assertThat(seen.header("X-Team")).isEqualTo("kept");
    }
}
