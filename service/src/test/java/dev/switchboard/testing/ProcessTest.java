package dev.switchboard.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Spawns a JVM or an OS process: the launcher, the packaged jar, the SIGKILL tests.
 * Tagged {@value Tiers#PROCESS}: left out of {@code ./mvnw test}, run by {@code -Pall} and {@code ./run-tests}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Tag(Tiers.PROCESS)
public @interface ProcessTest {}
