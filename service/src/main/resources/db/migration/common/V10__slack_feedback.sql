-- Issue 28: a person's 👍/👎 on an agent's final answer in Slack, one per person and answer (a second click of the
-- other button changes it). Kept with the answer's turn, for whoever reviews the agent's answers.
CREATE TABLE slack_feedback (
    post_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    turn_message_id TEXT,
    binding TEXT NOT NULL,
    value TEXT NOT NULL,
    given_at TEXT NOT NULL,
    PRIMARY KEY (post_id, user_id)
);
