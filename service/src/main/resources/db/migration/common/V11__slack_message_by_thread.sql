-- Slack messages by thread: a stream whose start was answered to nobody is looked for among its thread's messages,
-- which the store's known ones are told apart from (SlackApi.findUnrecordedStream).
CREATE INDEX slack_message_thread ON slack_message (channel, thread_ts);
