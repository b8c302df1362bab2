// Sending: the message box, and a message from being typed until the server's post takes its place.

import { postWithRetry, newMessageId } from './api.js';
import { ui, scrollToBottom, autosize } from './dom.js';
import { enc } from './format.js';
import { orderedPosts, turnStates, openQuestion } from './posts.js';
import { composerHintFor } from './questions.js';
import { scheduleRender } from './render.js';
import { refreshThreadsSoon, startThread } from './sidebar.js';
import { state } from './state.js';
import { fetchThread } from './thread.js';

export function sendMessage(text) {
  if (!state.threadId) {
    startThread(text, 'composer');
    return;
  }
  const p = {
    messageId: newMessageId(),
    threadId: state.threadId,
    text,
    status: 'posting',
    error: null,
    createdAt: new Date().toISOString(),
  };
  state.pending.set(p.messageId, p);
  scheduleRender();
  requestAnimationFrame(scrollToBottom);
  deliver(p);
}

/** Sends (or re-sends, with the same messageId) a pending message. */
export async function deliver(p) {
  p.status = 'posting';
  p.error = null;
  scheduleRender();
  try {
    const sent = await postWithRetry('/api/chat/threads/' + enc(p.threadId) + '/messages',
      { text: p.text, messageId: p.messageId }, () => {
        p.status = 'retrying';
        scheduleRender();
      });
    // the post's id is the server's, derived from our messageId: the pending copy gives way when that post arrives
    if (sent && sent.messageId) p.postId = sent.messageId;
    if (p.postId && state.posts.has(p.postId)) state.pending.delete(p.messageId);
  } catch (e) {
    if (!state.pending.has(p.messageId)) return; // the server's post already arrived
    if (e.retryable) {
      p.status = 'unsent';
      p.error = e.message;
    } else {
      // refused for good: give the text back so it can be edited
      state.pending.delete(p.messageId);
      if (p.threadId === state.threadId) {
        if (!ui.composerInput.value) {
          ui.composerInput.value = p.text;
          autosize(ui.composerInput);
        }
        ui.composerError.textContent = 'Not sent: ' + e.message;
        ui.composerError.hidden = false;
      }
    }
    scheduleRender();
    return;
  }
  if (state.pending.has(p.messageId)) {
    p.status = 'sent';
    scheduleRender();
    if (p.threadId === state.threadId) fetchThread(p.threadId);
  }
  refreshThreadsSoon();
}

export function updateComposer(question) {
  if (question === undefined && state.threadId) {
    const posts = orderedPosts();
    question = openQuestion(posts, turnStates(posts));
  }
  const enabled = !!state.channel && !state.threadMissing && !state.creatingThread;
  ui.composerInput.disabled = !enabled;
  ui.composerButton.disabled = !enabled;
  ui.composer.classList.toggle('answering', !!question);
  if (!state.channel) {
    ui.composerInput.placeholder = 'Pick a channel first';
    ui.composerLabel.textContent = 'Message';
    ui.composerHint.hidden = true;
  } else if (!state.threadId) {
    ui.composerInput.placeholder = 'Start a new thread in #' + state.channel + '…';
    ui.composerLabel.textContent = 'First message of a new thread';
    ui.composerHint.hidden = true;
    ui.composerButton.textContent = 'Start thread';
    return;
  } else if (question) {
    ui.composerInput.placeholder = 'Type your answer…';
    ui.composerLabel.textContent = 'Answer to the agent\'s question';
    ui.composerHint.textContent = composerHintFor(question);
    ui.composerHint.hidden = false;
  } else {
    ui.composerInput.placeholder = 'Reply in this thread…';
    ui.composerLabel.textContent = 'Reply';
    ui.composerHint.hidden = true;
  }
  ui.composerButton.textContent = question ? 'Answer' : 'Send';
}
