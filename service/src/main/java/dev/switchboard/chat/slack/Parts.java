package dev.switchboard.chat.slack;

import java.util.ArrayList;
import java.util.List;

/** An answer cut into the parts that fit one Slack message each. */
final class Parts {

    private Parts() {}

    /** Splits at a line break, else a space, near {@code size}; a part never ends inside an entity or a pair. */
    static List<String> split(String text, int size) {
        List<String> parts = new ArrayList<>();
        String rest = text;
        while (rest.length() > size) {
            int cut = rest.lastIndexOf('\n', size);
            if (cut < size / 2) {
                cut = rest.lastIndexOf(' ', size);
            }
            if (cut < size / 2) {
                cut = size;
                int amp = rest.lastIndexOf('&', cut - 1);
                if (amp > cut - 6 && rest.indexOf(';', amp) >= cut) {
                    cut = amp;
                }
                if (Character.isHighSurrogate(rest.charAt(cut - 1))) {
                    cut--;
                }
            }
            parts.add(rest.substring(0, cut));
            rest = rest.substring(cut).stripLeading();
        }
        parts.add(rest);
        return parts;
    }

    /** What the store keeps as shown for a message: its text, and its blocks when it has any. */
    static String shows(String text, String blocks) {
        return blocks == null ? text : text + "\n\u0000" + blocks;
    }
}
