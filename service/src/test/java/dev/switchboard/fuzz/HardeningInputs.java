package dev.switchboard.fuzz;

import static dev.switchboard.fuzz.Inputs.oneOf;

import dev.switchboard.fuzz.Inputs.Input;
import dev.switchboard.fuzz.Inputs.Target;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

/**
 * The cases of issue 22's findings: requests naming a foreign {@code Host} (DNS rebinding), and bodies that stall
 * (or are abandoned) part way on every route that reads one, unauthenticated ones first. Both are written to the
 * socket as they are: a client library would fix the {@code Host} and send the whole body.
 */
final class HardeningInputs {

    /** Hosts a rebinding page or a confused proxy would send: none is loopback or the server's own name. */
    private static final String[] FOREIGN_HOSTS = {"evil.example", "evil.example:8080", "attacker.test:80",
            "127.0.0.1.evil.example", "localhost.evil.example", "localhostx", "10.0.0.7", "192.168.1.20:8080",
            "[fe80::1]", "0x7f000001.evil.example", "xn--80ak6aa92e.example", "LOCALHOST.evil.example"};

    /** Every route a request can reach, with a body that is fine for it (the Host alone must decide). */
    private static final String[][] ROUTES = {
            {"POST", "/a2a/echo", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/get\",\"params\":{\"id\":\"t\"}}"},
            {"GET", "/a2a/echo/stream", null},
            {"GET", "/a2a/echo/.well-known/agent-card.json", null},
            {"GET", "/.well-known/agent-card.json", null},
            {"GET", "/agents", null},
            {"POST", "/agents/register", "{\"agent_id\":\"fz-host\",\"name\":\"x\",\"url\":\"http://127.0.0.1:9/\"}"},
            {"GET", "/api/chat/channels", null},
            {"POST", "/api/chat/channels/echo/threads", "{\"text\":\"hi\"}"},
            {"POST", "/slack/events", "{\"type\":\"url_verification\",\"challenge\":\"c\"}"},
            {"POST", "/triggers/notes", "{\"title\":\"t\",\"text\":\"x\"}"},
            {"GET", "/metrics", null},
            {"GET", "/", null}};

    /** Routes that read a body, with the credentials that let the request past its check (when the body arrives). */
    private static final String[][] BODY_ROUTES = {
            {"/slack/events", ""},
            {"/slack/interactions", ""},
            {"/agents/register", "Authorization: Bearer " + Inputs.ADMIN_TOKEN + "\r\n"},
            {"/agents/register", ""},
            {"/agents/heartbeat", ""},
            {"/api/chat/channels/echo/threads", "Authorization: Bearer " + Inputs.API_KEY + "\r\n"},
            {"/api/chat/channels/echo/threads", ""},
            {"/triggers/alerts", ""},
            {"/triggers/notes", "Authorization: Bearer " + TriggerInputs.TOKEN + "\r\n"},
            {"/a2a/echo", "Authorization: Bearer " + Inputs.API_KEY + "\r\n"},
            {"/a2a/echo", ""}};

    private HardeningInputs() {}

    /** A request to any route with a foreign {@code Host}: 421 before anything else is looked at. */
    static Input foreignHost(long index, Random r) {
        String[] route = ROUTES[r.nextInt(ROUTES.length)];
        String host = oneOf(r, FOREIGN_HOSTS);
        StringBuilder head = new StringBuilder(route[0] + " " + route[1] + " HTTP/1.1\r\nHost: " + host + "\r\n"
                + "Authorization: Bearer " + oneOf(r, Inputs.API_KEY, Inputs.ADMIN_TOKEN) + "\r\nConnection: close\r\n");
        if (r.nextInt(3) == 0) {
            head.append("Origin: http://").append(host).append("\r\n");
        }
        byte[] body = route[2] == null ? new byte[0] : route[2].getBytes(StandardCharsets.UTF_8);
        if (route[2] != null) {
            head.append("Content-Type: application/json\r\nContent-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
        return new Input(index, Target.HOST, route[0], route[1], List.<String[]>of(new String[] {"Host", host}), null,
                concat(head.toString().getBytes(StandardCharsets.ISO_8859_1), body), "foreign host " + route[1]);
    }

    /** True for the routes a foreign Host may still reach: the probes a kubelet sends with the pod's IP. */
    static boolean probe(Input in) {
        return in.path().equals("/healthz") || in.path().equals("/readyz");
    }

    /**
     * A body that never arrives whole: a declared length of up to 1 MiB with a part of it sent, or chunks that stop;
     * the connection then waits (for the body-read timeout's 408) or is abandoned at once ({@code what} says which).
     */
    static Input stalled(long index, Random r) {
        String[] route = BODY_ROUTES[r.nextInt(BODY_ROUTES.length)];
        boolean chunked = r.nextInt(4) == 0;
        int declared = oneOf(r, 1 << 20, 1 << 20, 256 * 1024, 256 * 1024 + 1, 64 * 1024, 4096);
        int sent = Math.min(declared - 1, oneOf(r, 0, 1, 100, 4096, 60_000));
        StringBuilder head = new StringBuilder("POST " + route[0] + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + route[1]
                + "Content-Type: application/json\r\n");
        head.append(chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + declared + "\r\n").append("\r\n");
        byte[] part = "{\"text\":\"".concat("s".repeat(Math.max(0, sent - 9))).getBytes(StandardCharsets.UTF_8);
        byte[] body = chunked ? concat((Integer.toHexString(part.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1), part)
                : part;
        boolean abandon = r.nextInt(3) > 0;
        return new Input(index, Target.STALL, "POST", route[0], List.of(), null,
                concat(head.toString().getBytes(StandardCharsets.ISO_8859_1), body),
                (abandon ? "abandoned" : "stalled") + (chunked ? " chunked" : " " + declared + " bytes") + " body to " + route[0]);
    }

    static boolean abandoned(Input in) {
        return in.target() == Target.STALL && in.what().startsWith("abandoned");
    }

    /** Why a stalled body's answer is wrong, or null: a 408 (or 413, 401, 503 with Retry-After), or a close. */
    static String wrongStallAnswer(Input in, Reply out) {
        if (out.status() < 0) {
            return null;
        }
        int s = out.status();
        if (s == 408 || s == 413 || s == 400 || s == 401 || s == 403 || s == 404 || s == 415) {
            return null;
        }
        if (s == 503 && out.header("retry-after") != null) {
            return null; // the global body budget is full
        }
        return "HTTP " + s + " to a body that never arrived";
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
