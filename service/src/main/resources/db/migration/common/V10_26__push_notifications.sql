-- Push notifications through the gateway (issue 26). A caller's push config is kept here; the agent is given the
-- gateway's own callback URL (/a2a/{agentId}/push/{callback_id}) and the config's secret as its token instead of the
-- caller's. Times are epoch milliseconds (compared as numbers on both dialects).
CREATE TABLE push_config (
    callback_id TEXT PRIMARY KEY,   -- random: the callback URL's last segment
    agent_id    TEXT NOT NULL,
    task_id     TEXT NOT NULL,
    config_id   TEXT NOT NULL,      -- the caller's (or the gateway's, when the caller gave none)
    caller_id   TEXT NOT NULL,
    version     TEXT NOT NULL,      -- '1.0' or '0.3', as the caller set it
    url         TEXT NOT NULL,      -- the caller's URL, checked against the egress policy
    token       TEXT,               -- the caller's token, sent back to it in X-A2A-Notification-Token
    auth        TEXT,               -- the caller's authentication object, as JSON
    secret      TEXT NOT NULL,      -- what the agent must send in X-A2A-Notification-Token on the callback
    created_at  BIGINT NOT NULL,
    UNIQUE (agent_id, task_id, config_id)
);

-- Notifications the agent sent, until they are delivered to the caller's URL (or given up): a restart loses none.
-- digest (SHA-256 of the body) keeps a notification the agent sent twice from being delivered twice; delivered and
-- dropped rows stay a while for that, then go.
CREATE TABLE push_outbox (
    id           TEXT PRIMARY KEY,
    callback_id  TEXT NOT NULL,
    digest       TEXT NOT NULL,
    body         TEXT NOT NULL,
    content_type TEXT NOT NULL,
    state        TEXT NOT NULL,     -- pending, delivered, dropped
    attempts     INTEGER NOT NULL,
    next_at      BIGINT NOT NULL,   -- pending: when it is next tried (a replica trying it moves it on: its lease)
    created_at   BIGINT NOT NULL,
    UNIQUE (callback_id, digest)
);
CREATE INDEX push_outbox_due ON push_outbox (state, next_at);
