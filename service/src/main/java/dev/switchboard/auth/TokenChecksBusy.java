package dev.switchboard.auth;

/**
 * Too many bearer tokens are waiting for their signature check: the caller is asked to retry (429 with Retry-After),
 * not told its token is bad. Only a flood of new tokens gets here; API keys and tokens verified lately never do.
 */
public final class TokenChecksBusy extends Exception {

    static final TokenChecksBusy INSTANCE = new TokenChecksBusy();

    private TokenChecksBusy() {
        super("server busy: too many tokens are being verified at once; retry shortly", null, false, false);
    }
}
