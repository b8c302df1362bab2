package dev.switchboard.auth;

/**
 * Why {@link CallerAuth} refused a caller: the {@code WWW-Authenticate} challenge to send (RFC 6750: a bare
 * {@code Bearer} when no credentials came, {@code error="invalid_token"} with a description when a token was bad) and
 * the sentence for the error body. Neither ever holds what the caller sent.
 */
public final class Unauthorized extends Exception {

    static final Unauthorized NO_CREDENTIALS = new Unauthorized("Bearer",
            "unauthorized: send an API key or a token as Authorization: Bearer <key>");
    static final Unauthorized UNKNOWN_KEY = new Unauthorized("Bearer error=\"invalid_token\", "
            + "error_description=\"not a valid API key\"", "unauthorized: not a valid API key or token");

    private final String challenge;

    private Unauthorized(String challenge, String message) {
        super(message, null, false, false);
        this.challenge = challenge;
    }

    static Unauthorized invalidToken(String description) {
        return new Unauthorized("Bearer error=\"invalid_token\", error_description=\"" + description + "\"",
                "unauthorized: invalid token: " + description);
    }

    /** The {@code WWW-Authenticate} header's value. */
    public String challenge() {
        return challenge;
    }
}
