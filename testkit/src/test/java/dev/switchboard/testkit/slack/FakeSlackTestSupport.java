package dev.switchboard.testkit.slack;

import com.slack.api.Slack;
import com.slack.api.SlackConfig;
import dev.switchboard.testkit.AwaitDefaults;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A fresh Vert.x and fake workspace per test, and the real SDK pointed at it. */
abstract class FakeSlackTestSupport {

    protected Vertx vertx;
    protected FakeSlack fake;
    protected Slack slack;
    private final List<FakeSlack> started = new ArrayList<>();

    @BeforeEach
    void startFake() {
        vertx = Vertx.vertx();
        fake = start(FakeSlackOptions.defaults());
        slack = sdkFor(fake);
    }

    @AfterEach
    void stopFake() throws Exception {
        if (slack != null) {
            slack.close();
        }
        started.forEach(f -> join(f.close()));
        join(vertx.close());
    }

    protected FakeSlack start(FakeSlackOptions options) {
        FakeSlack started = join(FakeSlack.start(vertx, options));
        this.started.add(started);
        return started;
    }

    protected static Slack sdkFor(FakeSlack fake) {
        SlackConfig config = new SlackConfig();
        config.setMethodsEndpointUrlPrefix(fake.apiUrl());
        return Slack.getInstance(config);
    }

    static <T> T join(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(AwaitDefaults.WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
