package dev.switchboard.gateway;

import java.util.Locale;

/** Whether a Content-Type is JSON: {@code application/json} or any {@code application/*+json}, parameters aside. */
public final class JsonContentType {

    private JsonContentType() {}

    public static boolean is(String contentType) {
        if (contentType == null) {
            return false;
        }
        if (contentType.equalsIgnoreCase("application/json")) {
            return true; // nearly every call: no split, no lower-casing
        }
        String type = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        return type.equals("application/json") || (type.startsWith("application/") && type.endsWith("+json"));
    }
}
