package dev.switchboard.config;

/** Configuration that cannot be used; the message names the document, the field and the problem. */
public final class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }
}
