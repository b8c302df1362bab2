package dev.switchboard.trigger;

/** A payload the trigger's format does not allow; the message starts with the field, e.g. {@code alerts: must be a list}. */
final class BadPayload extends RuntimeException {

    private final String field;

    BadPayload(String field, String problem) {
        super(field + ": " + problem, null, false, false);
        this.field = field;
    }

    String field() {
        return field;
    }
}
