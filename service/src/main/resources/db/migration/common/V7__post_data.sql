-- kagent-v1 (B10): what a post shows beyond its text, as JSON. A question's structured request (the tools to
-- approve, or the questions and their choices), and a step card's tool call or result. NULL on every other post.
ALTER TABLE chat_post ADD COLUMN data TEXT;
