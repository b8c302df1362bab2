-- Slack (C2). Every event is written before it is acknowledged, so that an acknowledged event is never lost and a
-- redelivery (a retry, a duplicate, the same event over two connections) is recognised by its event_id.
CREATE TABLE slack_event (
    event_id    TEXT PRIMARY KEY,
    app         TEXT NOT NULL,
    body        TEXT,                        -- the envelope until the event has been handled, then NULL
    received_at TEXT NOT NULL
);
CREATE INDEX slack_event_received ON slack_event (received_at);
CREATE INDEX slack_event_unhandled ON slack_event (app, received_at) WHERE body IS NOT NULL;

-- Where each post of a Slack thread is shown: one Slack message per part (an answer longer than one message goes
-- on in the next). ts is NULL while chat.postMessage is under way: after a crash, the message is looked up in the
-- thread (by the post id in its metadata) before it is sent again.
CREATE TABLE slack_message (
    post_id      TEXT NOT NULL,
    part         INTEGER NOT NULL,
    channel      TEXT NOT NULL,
    thread_ts    TEXT NOT NULL,
    ts           TEXT,
    shown_text   TEXT,                       -- the part's text as Slack shows it
    shown_update TEXT,                       -- the post's updated_at that was last shown in full
    PRIMARY KEY (post_id, part)
);
CREATE INDEX slack_message_unposted ON slack_message (ts) WHERE ts IS NULL;

-- Thread replies that did not mention the bot, held until the next turn carries them as untrusted data.
CREATE TABLE slack_side_message (
    thread_id  TEXT NOT NULL,
    ts         TEXT NOT NULL,
    user_id    TEXT,
    text       TEXT NOT NULL,
    PRIMARY KEY (thread_id, ts)
);
