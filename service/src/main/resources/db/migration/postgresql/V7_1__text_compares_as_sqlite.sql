-- PostgreSQL only. Timestamps are ISO-8601 text and Slack's ts are decimal text: the store compares and orders them
-- as strings (last_activity >= ?, ORDER BY received_at, ts <= ?). SQLite compares text byte by byte; PostgreSQL uses
-- the database's collation, which may order punctuation differently (en_US.UTF-8 does). The "C" collation compares
-- bytes, as SQLite does, whatever collation the database was created with.
ALTER TABLE agent_registration
    ALTER COLUMN registered_at TYPE TEXT COLLATE "C",
    ALTER COLUMN last_seen TYPE TEXT COLLATE "C";
ALTER TABLE chat_thread
    ALTER COLUMN created_at TYPE TEXT COLLATE "C",
    ALTER COLUMN last_activity TYPE TEXT COLLATE "C";
ALTER TABLE chat_post
    ALTER COLUMN created_at TYPE TEXT COLLATE "C",
    ALTER COLUMN updated_at TYPE TEXT COLLATE "C";
ALTER TABLE bridge_session
    ALTER COLUMN updated_at TYPE TEXT COLLATE "C";
ALTER TABLE slack_event
    ALTER COLUMN received_at TYPE TEXT COLLATE "C";
ALTER TABLE slack_message
    ALTER COLUMN thread_ts TYPE TEXT COLLATE "C",
    ALTER COLUMN ts TYPE TEXT COLLATE "C",
    ALTER COLUMN shown_update TYPE TEXT COLLATE "C";
ALTER TABLE slack_side_message
    ALTER COLUMN ts TYPE TEXT COLLATE "C";
ALTER TABLE trigger_thread
    ALTER COLUMN created_at TYPE TEXT COLLATE "C";
