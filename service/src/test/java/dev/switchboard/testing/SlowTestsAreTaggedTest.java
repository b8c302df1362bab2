package dev.switchboard.testing;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.LocationProvider;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.lang.annotation.Annotation;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The fast tier stays fast: a test class that reaches (itself or through its rigs and helpers) what makes a test
 * slow carries the tier's annotation, so {@code ./mvnw test} leaves it out. Reads the service's compiled test classes.
 */
@AnalyzeClasses(locations = SlowTestsAreTaggedTest.ServiceTestClasses.class,
        importOptions = ImportOption.OnlyIncludeTests.class)
class SlowTestsAreTaggedTest {

    /** This module's test-classes folder only: the protocol's and testkit's tests tag themselves with plain @Tag. */
    static final class ServiceTestClasses implements LocationProvider {
        @Override
        public Set<Location> get(Class<?> testClass) {
            try {
                return Set.of(Location.of(
                        Path.of(testClass.getProtectionDomain().getCodeSource().getLocation().toURI())));
            } catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** A class JUnit runs: it declares a test method, or inherits one (the fault tests' base class). */
    private static final DescribedPredicate<JavaClass> TEST_CLASSES = describe("test classes", c -> {
        for (JavaClass k = c; k != null; k = k.getRawSuperclass().orElse(null)) {
            if (k.getMethods().stream().anyMatch(m -> m.isAnnotatedWith("org.junit.jupiter.api.Test")
                    || m.isAnnotatedWith("org.junit.jupiter.params.ParameterizedTest")
                    || m.isAnnotatedWith("org.junit.jupiter.api.TestFactory")
                    || m.isAnnotatedWith("org.junit.jupiter.api.RepeatedTest"))) {
                return true;
            }
        }
        return false;
    });

    private static DescribedPredicate<JavaClass> named(String... names) {
        Set<String> set = Set.of(names);
        return describe(String.join(" or ", names), c -> set.contains(c.getName()));
    }

    /** Whether the class, or a test class it uses (rigs, helpers, base classes), depends on a slow one. */
    private static DescribedPredicate<JavaClass> reach(DescribedPredicate<JavaClass> slow) {
        return describe("reach " + slow.getDescription(), start -> {
            Set<JavaClass> seen = new HashSet<>();
            Deque<JavaClass> todo = new ArrayDeque<>(List.of(start));
            while (!todo.isEmpty()) {
                JavaClass c = todo.pop();
                if (!seen.add(c)) {
                    continue;
                }
                for (Dependency d : c.getDirectDependenciesFromSelf()) {
                    JavaClass target = d.getTargetClass().getBaseComponentType();
                    if (slow.test(target)) {
                        return true;
                    }
                    // only the imported test classes have dependencies to follow: main classes are names here
                    todo.push(target);
                }
            }
            return false;
        });
    }

    private static ArchRule reaching(DescribedPredicate<JavaClass> slow, Class<? extends Annotation> tier) {
        return classes().that(TEST_CLASSES).and(reach(slow)).should(beInTier(tier))
                .because("./mvnw test runs only the test classes with no tier (docs/development.md)");
    }

    /** Meta-annotated with the tier, or nested in a class that is: JUnit gives a @Nested class its outer one's tags. */
    private static ArchCondition<JavaClass> beInTier(Class<? extends Annotation> tier) {
        return new ArchCondition<>("be meta-annotated with @" + tier.getSimpleName() + ", or nested in a class that is") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                for (JavaClass k = c; k != null; k = k.getEnclosingClass().orElse(null)) {
                    if (k.isMetaAnnotatedWith(tier)) {
                        return;
                    }
                }
                events.add(SimpleConditionEvent.violated(c, c.getName() + " is not @" + tier.getSimpleName()
                        + " (" + c.getSource().map(Object::toString).orElse(c.getSimpleName()) + ")"));
            }
        };
    }

    @ArchTest
    static final ArchRule aWholeSwitchboardIsTheServerTier =
            reaching(named("dev.switchboard.app.SwitchboardApp"), ServerTest.class);

    @ArchTest
    static final ArchRule aChromiumIsTheBrowserTier =
            reaching(named("dev.switchboard.chat.web.Chromium"), BrowserTest.class);

    @ArchTest
    static final ArchRule aPostgresqlIsThePostgresTier =
            reaching(named("dev.switchboard.store.TestPostgres"), PostgresTest.class);

    @ArchTest
    static final ArchRule aServiceProcessIsTheProcessTier =
            reaching(named("dev.switchboard.bridge.support.ServiceProcess", "dev.switchboard.bridge.it.SdkAgent"),
                    ProcessTest.class);

    @ArchTest
    static final ArchRule anotherSdksPeerIsTheInteropTier = reaching(describe("the Java A2A SDK or the Node SDK agent",
            c -> c.getPackageName().startsWith("io.a2a.") || c.getName().equals("dev.switchboard.bridge.it.SdkAgent")),
            InteropTest.class);
}
