// The open thread's posts as data: merged from the snapshot and the live stream, in order, and which question
// still waits for its answer.

import { compareInstants, num } from './format.js';
import { state } from './state.js';

/** Upsert by id; an older version (by updatedAt) never overwrites a newer one. */
export function mergePost(post) {
  if (!post || !post.id) return;
  if (post.threadId && state.threadId && post.threadId !== state.threadId) return;
  const old = state.posts.get(post.id);
  if (old && compareInstants(post.updatedAt, old.updatedAt) < 0) return;
  state.posts.set(post.id, post);
  if (post.kind === 'user') {
    state.pending.delete(post.id);
    if (post.turnMessageId) state.pending.delete(post.turnMessageId);
    for (const [key, p] of state.pending) {
      if (p.postId && (p.postId === post.id || p.postId === post.turnMessageId)) state.pending.delete(key);
    }
  }
}

export function orderedPosts() {
  // seq is the post's place in its thread
  return Array.from(state.posts.values()).sort((a, b) =>
    num(a.seq) - num(b.seq) || compareInstants(a.createdAt, b.createdAt) || String(a.id).localeCompare(String(b.id)));
}

export function turnStates(posts) {
  const states = new Map();
  for (const p of posts) {
    if (p.kind === 'user' && p.state) states.set(p.id, p.state);
  }
  return states;
}

/** A structured answer's post: its id is derived from the question's (answer-<id> in threads older than that). */
export function answerTo(q) {
  return state.posts.get('web-answer-' + q.id) || state.posts.get('answer-' + q.id);
}

/**
 * The question still waiting for its answer, if any: the last question, while its turn waits for an answer. A plain
 * question is answered by the next user post; one that wants a structured answer (kagent) waits on after a typed
 * reply that could not answer it (several questions in one line), until its answer comes or its turn moves on.
 */
export function openQuestion(posts, states) {
  let userAfter = false;
  for (let i = posts.length - 1; i >= 0; i--) {
    const p = posts[i];
    if (p.kind === 'user') userAfter = true;
    if (p.kind === 'question') {
      const turn = p.turnMessageId ? states.get(p.turnMessageId) : undefined;
      if (turn !== undefined && turn !== 'waiting_for_answer') return null;
      if (hitlType(p)) return answerTo(p) ? null : p;
      return userAfter ? null : p;
    }
  }
  return null;
}

/** 'tool_approval' or 'ask_user' for a question that wants a structured answer; null for a plain one. */
export function hitlType(p) {
  const d = p && p.data;
  return d && typeof d === 'object' && (d.type === 'tool_approval' || d.type === 'ask_user') ? d.type : null;
}
