package dev.switchboard.trigger;

import dev.switchboard.bridge.store.ChatStore;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Which thread each alert group of a trigger went to ({@code trigger_thread}, V6), so follow-ups find it. Blocks. */
final class TriggerStore {

    private static final String FIND = "SELECT thread_id FROM trigger_thread WHERE trigger = ? AND group_hash = ?";
    private static final String RECORD = "INSERT INTO trigger_thread (trigger, group_hash, thread_id, created_at) "
            + "VALUES (?, ?, ?, ?) ON CONFLICT (trigger, group_hash) DO NOTHING";

    private final ChatStore chats;

    TriggerStore(ChatStore chats) {
        this.chats = chats;
    }

    Optional<String> thread(String trigger, String groupHash) {
        List<String> found = chats.read(FIND, rs -> rs.getString(1), trigger, groupHash);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    void record(String trigger, String groupHash, String threadId, Instant now) {
        chats.write(c -> chats.update(c, RECORD, trigger, groupHash, threadId, now.toString()));
    }
}
