-- Every turn-state change updates and reads a turn's user posts by turn_message_id (issue 9): without an
-- index each such step scanned the whole chat_post table, so the bridge slowed with every post ever written.
CREATE INDEX chat_post_turn ON chat_post (turn_message_id, kind);

-- Recovery at start reads the pending sessions in updated_at order: one index serves the filter and the order.
DROP INDEX bridge_session_pending;
CREATE INDEX bridge_session_pending ON bridge_session (pending, updated_at);
