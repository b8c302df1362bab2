package dev.switchboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps the service's packages pointing one way (DESIGN.md, Layout): {@code cli} → {@code app} → {@code config} →
 * features ({@code gateway}, {@code bridge}, {@code chat/*}, {@code ops}) → {@code registry}, {@code store},
 * {@code client} → shared helpers ({@code auth}, {@code http}, {@code net}, {@code log}) → {@code protocol}. Reads every source
 * file of {@code service/src/main/java}: its imports and any fully qualified name in its text count alike.
 *
 * <p>A new package needs a place in {@link #LAYERS}; a new edge inside one layer needs a line in
 * {@link #SIDEWAYS}, which is where to say why.
 */
class PackageDirectionTest {

    /** Top-level units (a {@code chat} platform is a unit of its own) from the top of the graph down. */
    private static final Map<String, Integer> LAYERS = Map.ofEntries(
            Map.entry("cli", 8),
            // watch mode: reads the cluster's resources into the config model and applies them to a running app
            Map.entry("kubernetes", 7),
            Map.entry("app", 6),
            // switchboard check: runs an agent through the bridge's client and the engine's rules, row by row
            Map.entry("check", 5),
            // the configuration file's validated model: it builds each feature's own settings types
            Map.entry("config", 5),
            Map.entry("gateway", 4),
            Map.entry("bridge", 4),
            Map.entry("chat.web", 4),
            Map.entry("chat.slack", 4),
            Map.entry("ops", 4),
            // alert triggers: an endpoint that starts turns with no person
            Map.entry("trigger", 4),
            Map.entry("registry", 3),
            Map.entry("store", 3),
            Map.entry("client", 3),
            Map.entry("auth", 2),
            Map.entry("http", 2),
            Map.entry("net", 2),
            // the log's format and the ids (MDC) a line is about
            Map.entry("log", 2),
            // OpenTelemetry's setup (off, or the SDK and its exporter): the gateway's and the bridge's spans use it
            Map.entry("tracing", 2),
            Map.entry("protocol", 1),
            // the scriptable agents the demo serves in-process; a module of its own, like protocol
            Map.entry("testkit", 1));

    /** Edges allowed between two units of one layer. */
    private static final Set<String> SIDEWAYS = Set.of(
            // a chat platform implements the bridge's ChatPlatform seam and hands it people's messages
            "chat.web -> bridge",
            "chat.slack -> bridge",
            // a trigger hands its turns to the bridge's SessionDriver and writes them with its UntrustedData blocks
            "trigger -> bridge",
            // the SQL implementation of the registry's RegistrationStore
            "store -> registry");

    private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");
    private static final Pattern IMPORT = Pattern.compile("(?m)^import\\s+(?:static\\s+)?([\\w.]+(?:\\.\\*)?)\\s*;");
    /** A use of one of ours: lower-case segments, then a type (or a wildcard). */
    private static final Pattern OURS = Pattern.compile("\\bdev\\.switchboard\\.((?:[a-z][a-z0-9_]*\\.)*[a-z][a-z0-9_]*)\\.(?:[A-Z]|\\*)");

    /** package (below dev.switchboard) → the packages it uses → a file that does */
    private static final Map<String, Map<String, String>> USES = new TreeMap<>();
    /** package → its files' imports */
    private static final Map<String, Set<String>> IMPORTS = new TreeMap<>();

    @BeforeAll
    static void scan() throws IOException {
        Path root = Stream.of(Path.of("src/main/java"), Path.of("service/src/main/java"))
                .filter(Files::isDirectory).findFirst().orElseThrow();
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(PackageDirectionTest::read);
        }
    }

    private static void read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Matcher p = PACKAGE.matcher(text);
        assertThat(p.find()).as("package line of %s", file).isTrue();
        String pkg = relative(p.group(1));
        Map<String, String> uses = USES.computeIfAbsent(pkg, k -> new TreeMap<>());
        Matcher m = OURS.matcher(text.substring(p.end()));
        while (m.find()) {
            String used = m.group(1);
            if (!used.equals(pkg)) {
                uses.putIfAbsent(used, file.getFileName().toString());
            }
        }
        Matcher i = IMPORT.matcher(text);
        while (i.find()) {
            IMPORTS.computeIfAbsent(pkg, k -> new TreeSet<>()).add(i.group(1));
        }
    }

    private static String relative(String pkg) {
        return pkg.startsWith("dev.switchboard.") ? pkg.substring("dev.switchboard.".length()) : pkg;
    }

    /** The top-level unit of a package: its first segment, or {@code chat.<platform>}. */
    private static String unit(String pkg) {
        String[] s = pkg.split("\\.");
        return s[0].equals("chat") && s.length > 1 ? "chat." + s[1] : s[0];
    }

    /** unit → unit → why (one package edge and a file that makes it) */
    private static Map<String, Map<String, String>> unitGraph() {
        Map<String, Map<String, String>> g = new TreeMap<>();
        USES.forEach((from, uses) -> uses.forEach((to, file) -> {
            if (!unit(from).equals(unit(to))) {
                g.computeIfAbsent(unit(from), k -> new TreeMap<>())
                        .putIfAbsent(unit(to), from + " -> " + to + " (" + file + ")");
            }
        }));
        return g;
    }

    @Test
    void theScanSeesTheService() {
        assertThat(USES.keySet()).contains("app", "bridge", "bridge.engine", "chat.web", "gateway", "registry");
        assertThat(USES.get("chat.web")).containsKey("bridge");
    }

    @Test
    void everyPackageHasALayer() {
        Set<String> units = new TreeSet<>();
        USES.forEach((from, uses) -> {
            units.add(unit(from));
            uses.keySet().forEach(to -> units.add(unit(to)));
        });
        assertThat(units).as("packages without a place in LAYERS").allMatch(LAYERS::containsKey);
    }

    @Test
    void noCycleBetweenPackages() {
        Map<String, Set<String>> byPackage = new TreeMap<>();
        USES.forEach((from, uses) -> byPackage.put(from, uses.keySet()));
        assertThat(cycles(byPackage)).as("package cycles").isEmpty();
        Map<String, Set<String>> byUnit = new TreeMap<>();
        unitGraph().forEach((from, to) -> byUnit.put(from, to.keySet()));
        assertThat(cycles(byUnit)).as("cycles between top-level packages").isEmpty();
    }

    @Test
    void dependenciesPointDown() {
        List<String> wrong = new ArrayList<>();
        unitGraph().forEach((from, to) -> to.forEach((target, why) -> {
            int a = LAYERS.getOrDefault(from, 0);
            int b = LAYERS.getOrDefault(target, 0);
            if (a < b || (a == b && !SIDEWAYS.contains(from + " -> " + target))) {
                wrong.add(from + " -> " + target + ": " + why);
            }
        }));
        assertThat(wrong).as("edges up or sideways (see LAYERS and SIDEWAYS)").isEmpty();
    }

    @Test
    void onlyCliUsesAppAndNothingUsesCli() {
        List<String> wrong = new ArrayList<>();
        unitGraph().forEach((from, to) -> to.forEach((target, why) -> {
            if (target.equals("cli") || (target.equals("app") && !from.equals("cli"))) {
                wrong.add(why);
            }
        }));
        assertThat(wrong).isEmpty();
    }

    @Test
    void theBridgeKnowsNoChatPlatform() {
        List<String> wrong = new ArrayList<>();
        USES.forEach((from, uses) -> uses.forEach((to, file) -> {
            if (unit(from).equals("bridge") && to.startsWith("chat")) {
                wrong.add(from + " -> " + to + " (" + file + ")");
            }
        }));
        assertThat(wrong).as("the bridge talks to platforms through ChatPlatform only").isEmpty();
    }

    @Test
    void theEngineImportsOnlyProtocolAndJava() {
        List<String> wrong = new ArrayList<>();
        USES.forEach((from, uses) -> {
            if (from.equals("bridge.engine") || from.startsWith("bridge.engine.")) {
                uses.forEach((to, file) -> {
                    if (!to.startsWith("protocol") && !to.startsWith("bridge.engine")) {
                        wrong.add(from + " -> " + to + " (" + file + ")");
                    }
                });
                IMPORTS.getOrDefault(from, Set.of()).forEach(i -> {
                    if (!i.startsWith("java.") && !i.startsWith("dev.switchboard.")) {
                        wrong.add(from + " imports " + i);
                    }
                });
            }
        });
        assertThat(wrong).isEmpty();
    }

    /** Each cycle found, as a path {@code a -> b -> a}. */
    private static List<String> cycles(Map<String, Set<String>> graph) {
        List<String> found = new ArrayList<>();
        Map<String, Integer> state = new LinkedHashMap<>(); // 1: on the path, 2: done
        for (String start : graph.keySet()) {
            walk(start, graph, state, new ArrayDeque<>(), found);
        }
        return found;
    }

    private static void walk(String node, Map<String, Set<String>> graph, Map<String, Integer> state,
            Deque<String> path, List<String> found) {
        Integer s = state.get(node);
        if (s != null) {
            if (s == 1) {
                List<String> cycle = new ArrayList<>();
                boolean in = false;
                for (var it = path.descendingIterator(); it.hasNext(); ) {
                    String n = it.next();
                    in |= n.equals(node);
                    if (in) {
                        cycle.add(n);
                    }
                }
                cycle.add(node);
                found.add(String.join(" -> ", cycle));
            }
            return;
        }
        state.put(node, 1);
        path.push(node);
        for (String next : graph.getOrDefault(node, Set.of())) {
            walk(next, graph, state, path, found);
        }
        path.pop();
        state.put(node, 2);
    }
}
