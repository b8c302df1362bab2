package dev.switchboard.auth;

import com.nimbusds.jose.util.JSONObjectUtils;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A token's claims as {@link dev.switchboard.auth.Caller#claims()} holds them: each a list of strings. A string, number
 * or boolean is a list of one; an array, its members (objects among them as JSON text); an object, its JSON text; and
 * {@code scope} / {@code scp}, as OAuth writes them (one space-separated string), its words.
 */
final class ClaimValues {

    private ClaimValues() {}

    static Map<String, List<String>> of(Map<String, Object> claims) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        claims.forEach((name, value) -> {
            if (value == null) {
                return;
            }
            List<String> values = new ArrayList<>();
            if (value instanceof List<?> list) {
                for (Object v : list) {
                    if (v != null) {
                        values.add(text(v));
                    }
                }
            } else if ((name.equals("scope") || name.equals("scp")) && value instanceof String s) {
                for (String word : s.trim().split(" +")) {
                    if (!word.isEmpty()) {
                        values.add(word);
                    }
                }
            } else {
                values.add(text(value));
            }
            out.put(name, List.copyOf(values));
        });
        return out;
    }

    @SuppressWarnings("unchecked")
    private static String text(Object v) {
        if (v instanceof Map<?, ?> map) {
            return JSONObjectUtils.toJSONString((Map<String, ?>) map);
        }
        if (v instanceof List<?> list) {
            Map<String, Object> wrapper = Map.of("v", list);
            String json = JSONObjectUtils.toJSONString(wrapper);
            return json.substring(5, json.length() - 1);
        }
        if (v instanceof Double d && d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 1e15) {
            return Long.toString(d.longValue()); // JSON numbers parse as doubles: 1700000000, not 1.7E9
        }
        return String.valueOf(v);
    }
}
