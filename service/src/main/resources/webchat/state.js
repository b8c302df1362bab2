// What the page knows: one object the modules share (a module's bindings are read-only to its importers).

export const state = {
  me: null,
  channels: [],
  channel: null,
  threads: [],
  threadsGen: 0,
  threadId: null,
  thread: null, // {threadId, channel, title}
  threadMissing: false,
  posts: new Map(), // id -> Post from the server
  // messageId (our idempotency key) -> {messageId, postId, threadId, text, status, error, createdAt}; postId is the
  // id the server derived from the key and told us, the id its post will have
  pending: new Map(),
  postEls: new Map(), // id -> <li>
  es: null, // the live stream's AbortController
  esGen: 0,
  esRetry: 0,
  esTimer: null,
  threadsRefreshTimer: null,
  creatingThread: false,
  renderQueued: false,
  answers: new Map(), // question post id -> {status: sending|sent|failed, label, decision, error}: structured answers sent from here
};
