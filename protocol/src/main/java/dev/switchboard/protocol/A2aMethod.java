package dev.switchboard.protocol;

import java.util.Optional;

/**
 * The A2A JSON-RPC methods with their 1.0 and 0.3 names. The two grammars never overlap
 * (PascalCase vs category/action), so a name alone tells the version. {@code v03Name} is null
 * where 0.3 has no JSON-RPC equivalent (ListTasks).
 */
public enum A2aMethod {
    SEND_MESSAGE("SendMessage", "message/send", false),
    SEND_STREAMING_MESSAGE("SendStreamingMessage", "message/stream", true),
    GET_TASK("GetTask", "tasks/get", false),
    LIST_TASKS("ListTasks", null, false),
    CANCEL_TASK("CancelTask", "tasks/cancel", false),
    SUBSCRIBE_TO_TASK("SubscribeToTask", "tasks/resubscribe", true),
    CREATE_PUSH_CONFIG("CreateTaskPushNotificationConfig", "tasks/pushNotificationConfig/set", false),
    GET_PUSH_CONFIG("GetTaskPushNotificationConfig", "tasks/pushNotificationConfig/get", false),
    LIST_PUSH_CONFIGS("ListTaskPushNotificationConfigs", "tasks/pushNotificationConfig/list", false),
    DELETE_PUSH_CONFIG("DeleteTaskPushNotificationConfig", "tasks/pushNotificationConfig/delete", false),
    GET_EXTENDED_CARD("GetExtendedAgentCard", "agent/getAuthenticatedExtendedCard", false);

    private final String v10Name;
    private final String v03Name;
    private final boolean streaming;

    A2aMethod(String v10Name, String v03Name, boolean streaming) {
        this.v10Name = v10Name;
        this.v03Name = v03Name;
        this.streaming = streaming;
    }

    public String v10Name() {
        return v10Name;
    }

    /** Null when 0.3 JSON-RPC has no such method. */
    public String v03Name() {
        return v03Name;
    }

    public boolean streaming() {
        return streaming;
    }

    /** The wire name in the given version; empty when that version lacks the method. */
    public Optional<String> nameIn(ProtocolVersion version) {
        return Optional.ofNullable(version == ProtocolVersion.V1_0 ? v10Name : v03Name);
    }

    /** The method for a wire name of either version. */
    public static Optional<A2aMethod> fromName(String name) {
        if (name == null) {
            return Optional.empty();
        }
        for (A2aMethod m : values()) {
            if (name.equals(m.v10Name) || name.equals(m.v03Name)) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }
}
