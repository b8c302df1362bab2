package dev.switchboard.cli;

import dev.switchboard.check.CheckLimits;
import dev.switchboard.check.CheckReport;
import dev.switchboard.check.CheckRequest;
import dev.switchboard.check.Checker;
import dev.switchboard.config.Durations;
import dev.switchboard.protocol.ProtocolVersion;
import io.vertx.core.Vertx;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code switchboard check URL}: probes an agent as the chat bridge calls it and prints, row by row, where it keeps or
 * breaks the agent contract (O6). Exit 0 when nothing FAILs, 1 when something does, 2 when it could not run.
 */
// no mixinStandardHelpOptions: its --version would take the A2A --version this command needs
@Command(name = "check",
        description = {"Probe an A2A agent and tell, row by row, where it breaks the agent contract.",
                "Prints PASS, FAIL, WARN or SKIP, the row id and the reason for each row.",
                "Exit status: 0 nothing FAILs, 1 something FAILs, 2 the check could not run."},
        exitCodeOnInvalidInput = CheckReport.EXIT_COULD_NOT_RUN,
        exitCodeOnExecutionException = CheckReport.EXIT_COULD_NOT_RUN)
public final class CheckCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Parameters(index = "0", paramLabel = "URL", description = "The agent's URL, as an AgentBackend's url would say it.")
    String url;

    @Option(names = "--dialect", defaultValue = "a2a", paramLabel = "a2a|kagent-v1",
            description = "a2a (default) or kagent-v1 (the agent is called at URL/agents/NAMESPACE/NAME).")
    String dialect;

    @Option(names = "--agent-ref", paramLabel = "NAMESPACE/NAME", description = "kagent-v1: the agent's namespace and name.")
    String agentRef;

    @Option(names = "--header", paramLabel = "K=V", description = "A header sent on every call (repeatable).")
    List<String> headers = List.of();

    @Option(names = "--token", paramLabel = "T",
            description = "Sent as Authorization: Bearer T on every call (or set SWITCHBOARD_CHECK_TOKEN).")
    String token;

    @Option(names = "--version", paramLabel = "1.0|0.3", description = "Speak this A2A version instead of the one the card names.")
    String version;

    @Option(names = "--json", description = "Print the result as one JSON document.")
    boolean json;

    @Option(names = "--quick", description = "A minute per turn at most; skips replies.event-every-5-minutes.")
    boolean quick;

    // For tests only: the seed's limits are the defaults.
    @Option(names = "--headers-timeout", hidden = true)
    String headersTimeout;

    @Option(names = "--silence-limit", hidden = true)
    String silenceLimit;

    @Option(names = "--turn-limit", hidden = true)
    String turnLimit;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        CheckRequest request;
        try {
            request = request();
        } catch (IllegalArgumentException e) {
            err.println("switchboard check: " + e.getMessage());
            err.flush();
            if (json) {
                out.println(CheckReport.badArguments(url, dialect, e.getMessage()).json());
                out.flush();
            }
            return CheckReport.EXIT_COULD_NOT_RUN;
        }
        Vertx vertx = Vertx.vertx();
        try {
            CheckReport report = Checker.run(vertx, request);
            out.print(json ? report.json() + System.lineSeparator() : report.text());
            out.flush();
            return report.exitCode();
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> null).join();
        }
    }

    CheckRequest request() {
        CheckLimits limits = quick ? CheckLimits.quickCheck() : CheckLimits.fullCheck();
        if (headersTimeout != null) {
            limits = limits.withHeadersTimeout(duration("--headers-timeout", headersTimeout));
        }
        if (silenceLimit != null) {
            limits = limits.withSilenceLimit(duration("--silence-limit", silenceLimit));
        }
        if (turnLimit != null) {
            limits = limits.withTurnLimit(duration("--turn-limit", turnLimit));
        }
        String namespace = null;
        String name = null;
        if (agentRef != null) {
            String[] parts = agentRef.split("/", -1);
            if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
                throw new IllegalArgumentException("--agent-ref must be NAMESPACE/NAME, not " + agentRef);
            }
            namespace = parts[0];
            name = parts[1];
        }
        Map<String, String> given = new LinkedHashMap<>();
        for (String h : headers) {
            int eq = h.indexOf('=');
            if (eq <= 0) {
                // only the name: the value may be a secret
                throw new IllegalArgumentException("--header must be K=V (header " + (eq == 0 ? "with no name" : "'"
                        + h.split("[:\\s]", 2)[0] + "' has no =") + ")");
            }
            given.put(h.substring(0, eq).strip(), h.substring(eq + 1).strip());
        }
        String bearer = token != null ? token : System.getenv("SWITCHBOARD_CHECK_TOKEN");
        ProtocolVersion v = null;
        if (version != null) {
            v = switch (version) {
                case "1.0" -> ProtocolVersion.V1_0;
                case "0.3" -> ProtocolVersion.V0_3;
                default -> throw new IllegalArgumentException("--version must be 1.0 or 0.3, not " + version);
            };
        }
        return new CheckRequest(url, CheckRequest.dialect(dialect), namespace, name, given, bearer, v, limits);
    }

    private static Duration duration(String option, String text) {
        try {
            return Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": " + e.getMessage());
        }
    }
}
