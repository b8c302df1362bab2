-- PostgreSQL only (issue 12): several replicas on one store. Each chat session is driven by the one replica that
-- holds its lease; the lease ends at expires_at, by the database's clock (now()), so replicas' clocks do not matter.
CREATE TABLE bridge_lease (
    thread_id   TEXT PRIMARY KEY,
    owner       TEXT NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX bridge_lease_owner ON bridge_lease (owner);

-- A person's message (or structured answer) that reached a replica which does not drive its thread: kept here until
-- the owner accepts it (then it is a post, and the row goes) or refuses it (refused_kind says why).
CREATE TABLE bridge_inbox (
    seq             BIGSERIAL,
    message_id      TEXT PRIMARY KEY,
    thread_id       TEXT NOT NULL,
    text            TEXT NOT NULL,
    author_id       TEXT,
    author_name     TEXT,
    author_email    TEXT,
    trace           TEXT,
    question_id     TEXT,
    answer          TEXT,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    refused_kind    TEXT,
    refused_text    TEXT
);
CREATE INDEX bridge_inbox_thread ON bridge_inbox (thread_id, seq);
