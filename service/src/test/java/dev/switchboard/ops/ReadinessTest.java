package dev.switchboard.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.gateway.support.Wait;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** O3: {@code /readyz} is 503 naming what is pending until every readiness condition is met, then 200. */
@ServerTest
class ReadinessTest {

    @TempDir
    Path dir;

    @Test
    void readyOnlyWhenEveryConditionIsMet() {
        Readiness readiness = new Readiness();
        assertThat(readiness.ready()).as("no conditions: ready").isTrue();
        Readiness.Condition a = readiness.pending("a");
        Readiness.Condition b = readiness.pending("b");
        assertThat(readiness.pendingNames()).containsExactly("a", "b");
        b.met();
        assertThat(readiness.ready()).isFalse();
        assertThat(readiness.pendingNames()).containsExactly("a");
        a.met();
        a.met();
        assertThat(readiness.ready()).isTrue();
        assertThat(readiness.pendingNames()).isEmpty();
    }

    @Test
    void aConditionNeedsAName() {
        assertThatThrownBy(() -> new Readiness().pending(" ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("name");
    }

    @Test
    void readyzNamesThePendingConditionUntilItIsMet() {
        try (Harness h = new Harness(dir)) {
            Readiness readiness = new Readiness();
            Readiness.Condition firstSync = readiness.pending("first sync");
            SwitchboardApp app = SwitchboardFixture.builder().vertx(h.vertx).readiness(readiness).config(h.config()).start()
                    .app();
            try (TestHttp http = new TestHttp(h.vertx, app.baseUrl())) {
                Reply pending = http.get("/readyz");
                assertThat(pending.status()).isEqualTo(503);
                assertThat(pending.header("Content-Type")).isEqualTo("application/json");
                assertThat(pending.json().path("status").asText()).isEqualTo("NOT_READY");
                assertThat(pending.json().path("pending").toString()).isEqualTo("[\"first sync\"]");
                assertThat(app.readiness().pendingNames()).as("the app's own conditions are met once it started")
                        .containsExactly("first sync");
                assertThat(http.get("/healthz").status()).as("alive while not ready").isEqualTo(200);

                firstSync.met();
                Reply ready = http.get("/readyz");
                assertThat(ready.status()).isEqualTo(200);
                assertThat(ready.json().path("status").asText()).isEqualTo("READY");
                assertThat(ready.json().has("pending")).isFalse();
                assertThat(app.readiness()).isSameAs(readiness);
            } finally {
                Wait.on(app.close());
            }
        }
    }
}
