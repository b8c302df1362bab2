package dev.switchboard.registry;

import java.util.regex.Pattern;

/** Agent ids: lowercase letters, digits and hyphens, 2 to 63 characters (PRODUCT.md, KubeMQ's rule). */
public final class AgentIds {

    private static final Pattern VALID = Pattern.compile("[a-z0-9-]{2,63}");

    private AgentIds() {}

    public static boolean isValid(String id) {
        return id != null && VALID.matcher(id).matches();
    }

    public static String rule() {
        return "lowercase letters, digits and hyphens, 2 to 63 characters";
    }
}
