package dev.switchboard.trigger;

/**
 * A Trigger resource as the endpoint runs it, its token resolved. The token never prints.
 *
 * @param binding the Binding whose platform and first channel receive the trigger's threads
 * @param perMinute the sustained rate of accepted requests
 * @param burst how many requests may come at once before the rate applies
 */
public record TriggerSettings(String name, String binding, TriggerFormat format, String token, int perMinute, int burst) {

    public static final int DEFAULT_PER_MINUTE = 60;

    /** The burst that goes with a rate when the configuration names none: a tenth of a minute's worth, at least 10. */
    public static int defaultBurst(int perMinute) {
        return Math.max(10, perMinute / 10);
    }

    @Override
    public String toString() {
        return "TriggerSettings[" + name + ", binding=" + binding + ", " + format.value() + ", " + perMinute + "/min, burst "
                + burst + "]";
    }
}
