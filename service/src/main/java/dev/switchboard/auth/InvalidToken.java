package dev.switchboard.auth;

/**
 * Why a bearer token was refused, in words fit for {@code WWW-Authenticate}'s {@code error_description} and the
 * error body: fixed phrases and configured names only, never a part of the token. No stack trace: it is an answer,
 * not a fault, and hostile callers can cause as many as they like.
 */
public final class InvalidToken extends Exception {

    public InvalidToken(String description) {
        super(description, null, false, false);
    }

    /** The description, safe inside a quoted-string: printable ASCII without quotes or backslashes. */
    public String description() {
        StringBuilder out = new StringBuilder();
        for (char c : getMessage().toCharArray()) {
            out.append(c >= 0x20 && c < 0x7f && c != '"' && c != '\\' ? c : '?');
        }
        return out.toString();
    }
}
