package dev.switchboard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 12: {@code store: postgresql://…} beside {@code sqlite:}, its password from a Secret, never shown. */
class StoreConfigTest {

    private static final String PASSWORD = "pg-Password-From-Env-42";

    private final ConfigLoader loader = new ConfigLoader(Map.of("PGPASSWORD", PASSWORD));

    @Test
    void aPostgresqlStoreTakesItsPasswordFromASecretFilledFromTheEnvironment() {
        SwitchboardConfig c = loader.parse("""
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                  store: postgresql://db.internal:5432/switchboard?user=switchboard&sslmode=verify-full
                  storePasswordSecretRef: {name: store, key: password}
                ---
                apiVersion: v1
                kind: Secret
                metadata: {name: store}
                stringData: {password: "${PGPASSWORD}"}
                """, "t.yaml");
        assertThat(c.server().store()).isEqualTo("postgresql://db.internal:5432/switchboard?user=switchboard&sslmode=verify-full");
        assertThat(c.secret(c.server().storePasswordSecretRef())).contains(PASSWORD);
        assertThat(c.server().toString()).doesNotContain(PASSWORD).contains("sslmode=verify-full");
        assertThat(c.toString()).doesNotContain(PASSWORD);
    }

    @Test
    void sqliteStaysTheDefault() {
        SwitchboardConfig c = loader.parse("""
                apiVersion: switchboard.dev/v1
                kind: Server
                spec: {listen: 127.0.0.1:9090}
                """, "t.yaml");
        assertThat(c.server().store()).isEqualTo("sqlite:./data/switchboard.db");
        assertThat(c.server().storePasswordSecretRef()).isNull();
    }

    @Test
    void aPasswordInTheStoreUrlIsRefusedAndNotRepeated() {
        for (String store : new String[] {"postgresql://db:5432/s?user=u&password=" + PASSWORD,
                "postgresql://u:" + PASSWORD + "@db:5432/s", "postgres://u:" + PASSWORD + "@db:5432/s"}) {
            assertThatThrownBy(() -> loader.parse("""
                    apiVersion: switchboard.dev/v1
                    kind: Server
                    spec:
                      store: "%s"
                    """.formatted(store), "t.yaml"))
                    .isInstanceOf(ConfigException.class).hasMessageContaining("spec.store")
                    .message().doesNotContain(PASSWORD);
        }
    }

    @Test
    void theStorePasswordsSecretMustExistAndBelongsToPostgresqlOnly() {
        assertThatThrownBy(() -> loader.parse("""
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                  store: postgresql://db:5432/s?user=u
                  storePasswordSecretRef: {name: nowhere, key: password}
                """, "t.yaml")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("spec.storePasswordSecretRef.name: no Secret named 'nowhere'");
        assertThatThrownBy(() -> loader.parse("""
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                  store: sqlite:./x.db
                  storePasswordSecretRef: {name: s, key: password}
                """, "t.yaml")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("only for a postgresql:// store");
        assertThatThrownBy(() -> loader.parse("""
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                  store: postgresql://db:5432
                """, "t.yaml")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("postgresql://host[:port]/database");
    }
}
