-- A streamed chunk updates one post (issue 9): the answer post, and nothing else. The session is not rewritten for
-- it, so the answer post keeps what the session would have: how its text divides into the task's artifacts (their
-- ids and lengths, in order) and whether it was cut at the answer limit. A session read from the store takes its
-- active turn's answer from here when the post is ahead of it. NULL on every other post, and on answers written
-- before this column (their sessions were rewritten with every chunk).
ALTER TABLE chat_post ADD COLUMN answer_parts TEXT;
