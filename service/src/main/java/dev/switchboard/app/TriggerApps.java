package dev.switchboard.app;

import dev.switchboard.bridge.BridgeService;
import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.chat.slack.SlackPlatform;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.trigger.ThreadOpener;
import dev.switchboard.trigger.TriggerSettings;
import dev.switchboard.trigger.Triggers;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The configuration's Trigger resources, their tokens resolved, with how each platform opens a trigger's thread. */
final class TriggerApps {

    private TriggerApps() {}

    static Triggers of(SwitchboardConfig config, List<dev.switchboard.bridge.Binding> bindings, BridgeService bridge,
            SlackPlatform slack, Clock clock) {
        List<TriggerSettings> settings = settings(config);
        ChatStore store = bridge.store();
        ThreadOpener web = (binding, channel, id, title) -> {
            Instant now = clock.instant();
            return store.ensureThread(new ChatThread(id, Platform.WEB, channel, binding, title, now, now));
        };
        ThreadOpener slackOpener = (binding, channel, id, title) -> slack.openThread(binding, channel, title);
        return new Triggers(settings, bindings, store, bridge.driver(),
                Map.of(Platform.WEB, web, Platform.SLACK, slackOpener), clock);
    }

    /** The configuration's Triggers with their tokens. */
    static List<TriggerSettings> settings(SwitchboardConfig config) {
        return config.triggers().stream().map(t -> new TriggerSettings(t.name(), t.bindingRef(),
                t.format(), config.secret(t.tokenSecretRef()).orElseThrow(), t.perMinute(), t.burst())).toList();
    }
}
