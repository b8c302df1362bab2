package dev.switchboard.mcp;

/**
 * A per-skill tool's name, {@code <agent>.<skill>}, within MCP's tool-name rules (2025-11-25: 1 to 128 characters of
 * ASCII letters, digits, {@code _}, {@code -} and {@code .}). Agent ids already fit; a skill id's other characters
 * (dots included, so the one dot stays the separator) become {@code _}, and the name is cut at 128.
 */
final class SkillToolNames {

    static final int MAX = 128;

    private SkillToolNames() {}

    /** The tool's name, or null when the skill id has nothing to name it by. */
    static String of(String agentId, String skillId) {
        if (skillId == null || skillId.isBlank()) {
            return null;
        }
        StringBuilder b = new StringBuilder(agentId).append('.');
        for (int i = 0; i < skillId.length() && b.length() < MAX; i++) {
            char c = skillId.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
            b.append(ok ? c : '_');
        }
        return b.toString();
    }

    /** Whether a name obeys the rules. */
    static boolean valid(String name) {
        return name != null && !name.isEmpty() && name.length() <= MAX && name.matches("[A-Za-z0-9_.\\-]+");
    }
}
