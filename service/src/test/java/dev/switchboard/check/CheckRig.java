package dev.switchboard.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.testkit.Recorder;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/** Testkit agents to check, and what every check test asserts about a report. */
final class CheckRig {

    /** --quick, as the tests run it: the seed's 30 s for headers, a minute per turn. */
    static final CheckLimits QUICK = CheckLimits.quickCheck();

    private CheckRig() {}

    static <T> T await(io.vertx.core.Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    /** Starts the agent, checks it (--quick unless {@code limits} says otherwise), and closes it. */
    static CheckReport check(Vertx vertx, TestAgentOptions options, Function<String, CheckRequest> request) throws Exception {
        TestAgent agent = await(TestAgent.start(vertx, options, 0));
        try {
            return Checker.run(vertx, request.apply(agent.url()));
        } finally {
            await(agent.close());
        }
    }

    static CheckReport quick(Vertx vertx, TestAgentOptions options) throws Exception {
        return check(vertx, options, url -> CheckRequest.of(url, QUICK));
    }

    /** A kagent agent served where kagent serves it: {@code <url>/agents/default/sre}. */
    static CheckReport kagent(Vertx vertx, TestAgentOptions options) throws Exception {
        return kagent(vertx, options, new Recorder());
    }

    static CheckReport kagent(Vertx vertx, TestAgentOptions options, Recorder recorder) throws Exception {
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0));
        Router router = Router.router(vertx);
        server.requestHandler(router);
        await(server.listen());
        String url = "http://127.0.0.1:" + server.actualPort();
        router.route("/agents/default/sre/*").subRouter(TestAgent.router(vertx, options, url + "/agents/default/sre",
                recorder));
        try {
            return Checker.run(vertx, new CheckRequest(url, Dialect.KAGENT_V1, "default", "sre", null, null, null, QUICK));
        } finally {
            await(server.close());
        }
    }

    /** Exactly {@code row} has {@code verdict} among the non-passing rows it allows: no other row FAILs. */
    static void onlyFails(CheckReport report, RowId row, Verdict verdict, String reasonPart) {
        RowResult r = report.row(row);
        assertThat(r.verdict()).as(report.text()).isEqualTo(verdict);
        assertThat(r.reason()).as(report.text()).contains(reasonPart);
        List<RowResult> otherFails = report.rows().stream()
                .filter(x -> x.row() != row && x.verdict() == Verdict.FAIL).toList();
        assertThat(otherFails).as(report.text()).isEmpty();
        assertThat(report.exitCode()).isEqualTo(verdict == Verdict.FAIL ? 1 : 0);
    }

    /** Every row PASSes but the listed ones, which have the given verdicts. */
    static void passesBut(CheckReport report, Object... rowThenVerdict) {
        java.util.Map<RowId, Verdict> expected = new java.util.EnumMap<>(RowId.class);
        for (int i = 0; i < rowThenVerdict.length; i += 2) {
            expected.put((RowId) rowThenVerdict[i], (Verdict) rowThenVerdict[i + 1]);
        }
        for (RowResult r : report.rows()) {
            assertThat(r.verdict()).as(r.row().id() + "\n" + report.text())
                    .isEqualTo(expected.getOrDefault(r.row(), Verdict.PASS));
        }
    }

    static Duration seconds(long s) {
        return Duration.ofSeconds(s);
    }
}
