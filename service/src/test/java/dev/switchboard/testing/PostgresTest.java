package dev.switchboard.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Starts PostgreSQL (once per test JVM, see {@code TestPostgres}).
 * Tagged {@value Tiers#POSTGRES}: left out of {@code ./mvnw test}, run by {@code -Pall} and {@code ./run-tests}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Tag(Tiers.POSTGRES)
public @interface PostgresTest {}
