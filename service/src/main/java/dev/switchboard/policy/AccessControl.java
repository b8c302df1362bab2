package dev.switchboard.policy;

/**
 * The gateway's grants and caller limits, as the gateway, the registry list and the cards consult them. The grants
 * are one immutable {@link Grants}, swapped whole when the configuration changes (Kubernetes watch mode): a call sees
 * the old policies or the new ones, never a mix.
 */
public final class AccessControl {

    private volatile Grants grants;
    private final CallerLimits limits;

    public AccessControl(Grants grants, CallerLimits limits) {
        this.grants = grants;
        this.limits = limits;
    }

    /** Everything allowed, no limits: for routes built without a configuration. */
    public static AccessControl open() {
        return new AccessControl(Grants.OPEN, new CallerLimits(CallerLimitSettings.OFF, System::nanoTime));
    }

    public Grants grants() {
        return grants;
    }

    public CallerLimits limits() {
        return limits;
    }

    /** Puts new policies in force at once. */
    public void replace(Grants next) {
        grants = next;
    }
}
