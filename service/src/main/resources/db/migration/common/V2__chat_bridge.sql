-- The chat bridge (B14, C1). A session's engine state is written before the effects that depend on it.

CREATE TABLE chat_thread (
    thread_id     TEXT PRIMARY KEY,
    platform      TEXT NOT NULL,             -- web | slack
    channel       TEXT NOT NULL,
    binding       TEXT NOT NULL,
    title         TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    last_activity TEXT NOT NULL
);
CREATE INDEX chat_thread_channel ON chat_thread (platform, channel, last_activity);

-- What a thread shows: the people's messages, the agent's answers, questions and notices.
CREATE TABLE chat_post (
    post_id         TEXT PRIMARY KEY,        -- a user post's id is the turn's messageId
    thread_id       TEXT NOT NULL REFERENCES chat_thread (thread_id),
    seq             INTEGER NOT NULL,        -- order within the thread
    kind            TEXT NOT NULL,           -- user | agent | notice | question
    text            TEXT NOT NULL,
    author_id       TEXT,
    author_name     TEXT,
    author_email    TEXT,
    turn_message_id TEXT,                    -- the turn a post belongs to
    state           TEXT,                    -- a user post's turn state
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL
);
CREATE INDEX chat_post_thread ON chat_post (thread_id, seq);

-- One engine session per thread: its context, active turn and queue, as JSON.
CREATE TABLE bridge_session (
    thread_id   TEXT PRIMARY KEY REFERENCES chat_thread (thread_id),
    state       TEXT NOT NULL,
    pending     INTEGER NOT NULL,            -- 1 while turns are unfinished: recovered at start
    updated_at  TEXT NOT NULL
);
CREATE INDEX bridge_session_pending ON bridge_session (pending);
