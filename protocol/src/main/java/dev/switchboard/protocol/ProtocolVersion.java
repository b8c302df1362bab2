package dev.switchboard.protocol;

/** The two A2A wire versions Switchboard speaks. */
public enum ProtocolVersion {
    V0_3("0.3"),
    V1_0("1.0");

    private final String label;

    ProtocolVersion(String label) {
        this.label = label;
    }

    /** "0.3" or "1.0": the value of the A2A-Version header and of interface protocolVersion. */
    public String label() {
        return label;
    }
}
