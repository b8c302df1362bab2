package dev.switchboard.protocol.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Send options. {@code returnImmediately} is the 1.0 polarity (0.3 {@code blocking} = !returnImmediately);
 * null means the field was absent. {@code pushNotificationConfig} is kept as the wire gave it (either
 * version's shape); each writer converts it to its own ({@code codec.PushConfigs}).
 * {@code timeoutSeconds} is the gateway's own extension ({@code configuration.timeout}).
 */
public record SendMessageConfiguration(
        List<String> acceptedOutputModes,
        Integer historyLength,
        Boolean returnImmediately,
        JsonNode pushNotificationConfig,
        Long timeoutSeconds) {

    public SendMessageConfiguration {
        acceptedOutputModes = acceptedOutputModes == null ? List.of() : List.copyOf(acceptedOutputModes);
    }
}
