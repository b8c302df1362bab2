package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.registry.RegistrySettings;
import dev.switchboard.testing.ServerTest;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Threat: registry flooding. Each registration costs a store row, memory, meters and a card cache
 * slot; unbounded, anyone allowed to register can exhaust them. At {@code registry.maxRegistrations}
 * a new id is refused with HTTP 429 naming the limit; re-registering an id already held still works,
 * and a freed place can be taken again. Config-file agents do not count.
 */
@ServerTest
class RegistrationsAreCappedTest {

    @TempDir
    static Path dir;

    static Harness h;

    @BeforeAll
    static void start() {
        h = new Harness(dir).registry(new RegistrySettings(List.of(), 3)).backend("from-config", "http://127.0.0.1:1/").start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    private static Reply register(String id) {
        return h.http().post("/agents/register", "{\"agent_id\":\"" + id + "\",\"name\":\"n\",\"url\":\"http://127.0.0.1:1/\"}");
    }

    @Test
    void theNextNewIdIsRefusedWith429AndKnownIdsStillReRegister() {
        for (String id : List.of("cap-1", "cap-2", "cap-3")) {
            assertThat(register(id).status()).as(id).isEqualTo(200);
        }

        Reply over = register("cap-4");
        assertThat(over.status()).as(over.toString()).isEqualTo(429);
        assertThat(over.json().path("error").asText()).contains("3").contains("maxRegistrations");
        assertThat(over.json().path("limit").asInt()).isEqualTo(3);
        assertThat(h.http().get("/agents/cap-4").status()).isEqualTo(404);

        assertThat(register("cap-2").status()).as("re-registering a held id").isEqualTo(200);

        assertThat(h.http().delete("/agents/cap-1").status()).isEqualTo(200);
        assertThat(register("cap-4").status()).as("a freed place").isEqualTo(200);
        assertThat(register("cap-5").status()).isEqualTo(429);
    }
}
