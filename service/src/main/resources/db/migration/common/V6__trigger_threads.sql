-- Triggers (B15). Each alert group (an Alertmanager groupKey, a generic payload's key) of a trigger is one thread;
-- its later notifications find the thread here. group_hash is the SHA-256 of the binding, the channel and the key,
-- so a trigger moved to another binding or channel starts new threads there. On the web chat the thread id is
-- derived from the same hash; on Slack it is the root message's, known only once that message is posted.
CREATE TABLE trigger_thread (
    trigger    TEXT NOT NULL,
    group_hash TEXT NOT NULL,
    thread_id  TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (trigger, group_hash)
);
