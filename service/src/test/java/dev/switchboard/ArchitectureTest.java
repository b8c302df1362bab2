package dev.switchboard;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.LocationProvider;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import dev.switchboard.app.SwitchboardApp;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Keeps the service's packages pointing one way: {@code cli} → {@code app} → {@code config} → features
 * ({@code gateway}, {@code bridge}, {@code chat/*}, {@code ops}) → {@code registry}, {@code store}, {@code client} →
 * shared helpers ({@code auth}, {@code http}, {@code net}, {@code log}) → {@code protocol}. Reads the service's
 * compiled main classes (not protocol's or testkit's, which are only the targets of its dependencies), so every
 * dependency the compiler wrote counts, and a failure names the class, member and line that makes it.
 *
 * <p>A new package needs a place in {@link #LAYERS}; a new edge inside one layer needs a line in {@link #SIDEWAYS},
 * which is where to say why.
 */
@AnalyzeClasses(locations = ArchitectureTest.ServiceMainClasses.class,
        importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    private static final String OURS = "dev.switchboard.";

    /** Top-level units (a {@code chat} platform is a unit of its own) from the top of the graph down. */
    static final Map<String, Integer> LAYERS = Map.ofEntries(
            Map.entry("cli", 8),
            // watch mode: reads the cluster's resources into the config model and applies them to a running app
            Map.entry("kubernetes", 7),
            Map.entry("app", 6),
            // switchboard check: runs an agent through the bridge's client and the engine's rules, row by row
            Map.entry("check", 5),
            // the configuration file's validated model: it builds each feature's own settings types
            Map.entry("config", 5),
            // the operator's console (issue 27): reads the registry, the gateway's cards and meters, the chat store
            Map.entry("console", 5),
            Map.entry("gateway", 4),
            Map.entry("bridge", 4),
            Map.entry("chat.web", 4),
            Map.entry("chat.slack", 4),
            Map.entry("ops", 4),
            // alert triggers: an endpoint that starts turns with no person
            Map.entry("trigger", 4),
            // the MCP door: every registered agent as MCP tools (issue 25)
            Map.entry("mcp", 4),
            Map.entry("registry", 3),
            // AccessPolicy grants and per-caller limits: decided over the caller (auth) and the registered agent
            Map.entry("policy", 3),
            Map.entry("store", 3),
            // push notifications (issue 26): callers' configs and the outbox in the store, delivered under the egress
            // policy; the gateway takes the configs and the callbacks and hands them here
            Map.entry("push", 3),
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
    static final Set<String> SIDEWAYS = Set.of(
            // a chat platform implements the bridge's ChatPlatform seam and hands it people's messages
            "chat.web -> bridge",
            "chat.slack -> bridge",
            // a trigger hands its turns to the bridge's SessionDriver and writes them with its UntrustedData blocks
            "trigger -> bridge",
            // the MCP door calls agents under the gateway's rules: its egress check, timeout chain and cross-site test
            "mcp -> gateway",
            // the console shows switchboard check's findings on the card its probe fetched, in the check's words
            "console -> check",
            // the SQL implementation of the registry's RegistrationStore
            "store -> registry",
            // a grant is decided on a RegisteredAgent (its id, origin and skills); the registry asks the app, not policy
            "policy -> registry",
            // the outbox's delivery checks callers' URLs with the registry's EgressPolicy, as agents' URLs are checked
            "push -> registry",
            // the push tables' SQL fails as the store's does (StoreException)
            "push -> store");

    /**
     * The service module's own classes folder (or jar): with the whole reactor on the class path, a package scan
     * of {@code dev.switchboard} would import protocol's and testkit's classes as well, whose edges are not ruled here.
     */
    static final class ServiceMainClasses implements LocationProvider {
        @Override
        public Set<Location> get(Class<?> testClass) {
            try {
                return Set.of(Location.of(
                        Path.of(SwitchboardApp.class.getProtectionDomain().getCodeSource().getLocation().toURI())));
            } catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** The top-level unit of one of our classes: its package's first segment below ours, or {@code chat.<platform>}. */
    static String unit(JavaClass c) {
        String pkg = c.getPackageName();
        if (!pkg.startsWith(OURS)) {
            return null;
        }
        String[] s = pkg.substring(OURS.length()).split("\\.");
        return s[0].equals("chat") && s.length > 1 ? "chat." + s[1] : s[0];
    }

    /** A dependency between two of our units (null when it stays in one unit or leaves ours). */
    private static String edge(Dependency d) {
        String from = unit(d.getOriginClass());
        String to = unit(d.getTargetClass().getBaseComponentType());
        return from == null || to == null || from.equals(to) ? null : from + " -> " + to;
    }

    @ArchTest
    static void theImportSeesTheService(JavaClasses classes) {
        Set<String> packages = new TreeSet<>();
        classes.forEach(c -> packages.add(c.getPackageName().substring(OURS.length())));
        assertThat(packages).contains("app", "bridge", "bridge.engine", "chat.web", "gateway", "registry")
                .doesNotContain("protocol", "testkit");
        assertThat(classes.stream().filter(c -> "chat.web".equals(unit(c)))
                .flatMap(c -> c.getDirectDependenciesFromSelf().stream())
                .anyMatch(d -> "bridge".equals(unit(d.getTargetClass()))))
                .as("chat.web uses the bridge").isTrue();
    }

    @ArchTest
    static final ArchRule everyPackageHasALayer = classes().should(new ArchCondition<JavaClass>(
            "be in a unit that has a place in LAYERS, and use only such units") {
        @Override
        public void check(JavaClass c, ConditionEvents events) {
            if (!LAYERS.containsKey(unit(c))) {
                events.add(SimpleConditionEvent.violated(c,
                        c.getName() + " is in " + unit(c) + ", which has no place in LAYERS"));
            }
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String to = unit(d.getTargetClass().getBaseComponentType());
                if (to != null && !LAYERS.containsKey(to)) {
                    events.add(SimpleConditionEvent.violated(d,
                            to + " has no place in LAYERS: " + d.getDescription()));
                }
            }
        }
    });

    @ArchTest
    static final ArchRule noCycleBetweenPackages = slices().matching("dev.switchboard.(**)")
            .should().beFreeOfCycles();

    @ArchTest
    static final ArchRule noCycleBetweenTopLevelPackages = slices().assignedFrom(new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            String unit = unit(c);
            return unit == null ? SliceIdentifier.ignore() : SliceIdentifier.of(unit);
        }

        @Override
        public String getDescription() {
            return "top-level packages (a chat platform is one of its own)";
        }
    }).should().beFreeOfCycles();

    @ArchTest
    static final ArchRule dependenciesPointDown = classes().should(new ArchCondition<JavaClass>(
            "depend only on units of a lower layer, or of its own layer when SIDEWAYS allows it") {
        @Override
        public void check(JavaClass c, ConditionEvents events) {
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String edge = edge(d);
                if (edge == null) {
                    continue;
                }
                String[] ends = edge.split(" -> ");
                int a = LAYERS.getOrDefault(ends[0], 0);
                int b = LAYERS.getOrDefault(ends[1], 0);
                if (a < b || (a == b && !SIDEWAYS.contains(edge))) {
                    events.add(SimpleConditionEvent.violated(d, edge + " goes " + (a < b ? "up" : "sideways")
                            + " (see LAYERS and SIDEWAYS): " + d.getDescription()));
                }
            }
        }
    });

    @ArchTest
    static final ArchRule onlyCliUsesApp = noClasses()
            .that().resideOutsideOfPackages("dev.switchboard.cli..", "dev.switchboard.app..")
            .should().dependOnClassesThat().resideInAPackage("dev.switchboard.app..")
            .because("app is the wiring, which only the command line starts");

    @ArchTest
    static final ArchRule nothingUsesCli = noClasses()
            .that().resideOutsideOfPackage("dev.switchboard.cli..")
            .should().dependOnClassesThat().resideInAPackage("dev.switchboard.cli..")
            .because("the command line is the top of the graph");

    @ArchTest
    static final ArchRule theBridgeKnowsNoChatPlatform = noClasses()
            .that().resideInAPackage("dev.switchboard.bridge..")
            .should().dependOnClassesThat().resideInAPackage("dev.switchboard.chat..")
            .because("the bridge talks to platforms through ChatPlatform only");

    @ArchTest
    static final ArchRule theEngineUsesOnlyProtocolAndJava = classes()
            .that().resideInAPackage("dev.switchboard.bridge.engine..")
            .should().onlyDependOnClassesThat()
            .resideInAnyPackage("java..", "dev.switchboard.protocol..", "dev.switchboard.bridge.engine..")
            .because("the engine is the contract and nothing else: no client, store, Jackson or Vert.x");
}
