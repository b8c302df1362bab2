package dev.switchboard.config;

import dev.switchboard.bridge.BridgeLimits;
import dev.switchboard.bridge.engine.ContractDurations;
import dev.switchboard.chat.web.WebChatSettings;

/** The chat bridge's settings from the Server resource: the web chat's identity rules, the contract's durations, the bounds. */
public record BridgeSettings(WebChatSettings webChat, ContractDurations contract, BridgeLimits limits) {

    public static final BridgeSettings DEFAULTS =
            new BridgeSettings(WebChatSettings.DEFAULTS, ContractDurations.DEFAULTS, BridgeLimits.DEFAULTS);
}
