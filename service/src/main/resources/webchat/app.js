// Switchboard web chat: plain JS against the /api/chat JSON API, no build step, no dependencies.
(() => {
  'use strict';

  const $ = (id) => document.getElementById(id);
  const enc = encodeURIComponent;

  const STATE_LABELS = {
    queued: 'Queued',
    sending: 'Sending',
    running: 'Running',
    waiting_for_answer: 'Waiting for your answer',
    paused: 'Paused',
    retrying: 'Retrying',
    cancelling: 'Cancelling',
    completed: 'Completed',
    failed: 'Failed',
    rejected: 'Rejected',
    canceled: 'Canceled',
    not_delivered: 'Not delivered',
  };
  const ACTIVE_STATES = new Set(['queued', 'sending', 'running', 'retrying', 'cancelling']);
  const WAITING_STATES = new Set(['waiting_for_answer', 'paused']);
  const BAD_STATES = new Set(['failed', 'rejected', 'canceled', 'not_delivered']);

  // Delays between attempts of a POST that failed on the network or with a retryable status.
  const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000];
  const STREAM_RETRY_MAX_MS = 15000;
  const THREADS_POLL_MS = 30000;

  const ui = {
    channelList: $('channel-list'),
    channelsEmpty: $('channels-empty'),
    threadsSection: $('threads-section'),
    threadsHeading: $('threads-heading'),
    threadList: $('thread-list'),
    threadsEmpty: $('threads-empty'),
    newThreadForm: $('new-thread-form'),
    newThreadInput: $('new-thread-input'),
    newThreadButton: $('new-thread-button'),
    newThreadError: $('new-thread-error'),
    me: $('me'),
    meAvatar: $('me-avatar'),
    meName: $('me-name'),
    meEmail: $('me-email'),
    title: $('thread-title'),
    subtitle: $('thread-subtitle'),
    connection: $('connection'),
    scroller: $('posts-scroller'),
    emptyState: $('empty-state'),
    posts: $('posts'),
    composer: $('composer'),
    composerInput: $('composer-input'),
    composerButton: $('composer-button'),
    composerLabel: $('composer-label'),
    composerHint: $('composer-hint'),
    composerError: $('composer-error'),
  };

  const state = {
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

  // ---- Identity --------------------------------------------------------------------------------
  // On a server reachable beyond this machine the API wants an identity. Behind a signing-in proxy the
  // browser already has one; otherwise the page asks for an API key once, keeps it in this tab
  // (sessionStorage) and sends it as a Bearer header, also on the live stream (fetch, not EventSource, which
  // cannot send headers; a key in the URL would end up in logs and history).

  const KEY_STORE = 'switchboard.apiKey';
  const auth = { key: readKey(), asked: false };

  function readKey() {
    try {
      return sessionStorage.getItem(KEY_STORE);
    } catch (e) {
      return null;
    }
  }

  function withAuth(headers) {
    if (auth.key) headers.Authorization = 'Bearer ' + auth.key;
    return headers;
  }

  /** After a 401 to a call made with {@code usedKey}: true when there is a new key to try the call with. */
  function renewKey(usedKey) {
    if (auth.key && auth.key !== usedKey) return true; // another call already got one
    if (auth.key === usedKey && usedKey) {
      auth.key = null;
      try { sessionStorage.removeItem(KEY_STORE); } catch (e) { /* private mode */ }
    }
    if (auth.asked) return false;
    auth.asked = true;
    const key = window.prompt(
      'This chat needs an API key (ask whoever runs this Switchboard). It is kept in this tab only.', '');
    if (!key || !key.trim()) return false;
    auth.key = key.trim();
    try { sessionStorage.setItem(KEY_STORE, auth.key); } catch (e) { /* kept in memory only */ }
    return true;
  }

  // ---- API -------------------------------------------------------------------------------------

  class ApiError extends Error {
    constructor(status, body) {
      super((body && body.error) || (status ? 'HTTP ' + status : 'network error'));
      this.status = status;
      this.field = body && body.field;
      // 0 = no answer at all (network); 408, 429 and 5xx may succeed when repeated
      this.retryable = status === 0 || status === 408 || status === 429 || status >= 500;
    }
  }

  async function api(method, path, body) {
    let res;
    const usedKey = auth.key;
    try {
      res = await fetch(path, {
        method,
        headers: withAuth(body === undefined ? { Accept: 'application/json' }
          : { 'Content-Type': 'application/json', Accept: 'application/json' }),
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
        cache: 'no-store',
      });
    } catch (e) {
      throw new ApiError(0, null);
    }
    const text = await res.text().catch(() => '');
    let json = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch (e) {
      json = null;
    }
    if (res.status === 401 && renewKey(usedKey)) {
      return api(method, path, body);
    }
    if (!res.ok) {
      throw new ApiError(res.status, json);
    }
    return json;
  }

  /** POSTs with the same body (and so the same messageId) until it succeeds or fails for good. */
  async function postWithRetry(path, body, onRetry) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await api('POST', path, body);
      } catch (e) {
        if (!(e instanceof ApiError) || !e.retryable || attempt >= RETRY_DELAYS_MS.length) {
          throw e;
        }
        if (onRetry) onRetry(attempt + 1, e);
        await sleep(RETRY_DELAYS_MS[attempt]);
      }
    }
  }

  function sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** A message id for safe retries: crypto.randomUUID where available (secure contexts), else a v4 UUID by hand. */
  function newMessageId() {
    const c = window.crypto;
    if (c && typeof c.randomUUID === 'function') {
      try {
        return c.randomUUID();
      } catch (e) { /* fall through */ }
    }
    const bytes = new Uint8Array(16);
    if (c && typeof c.getRandomValues === 'function') {
      c.getRandomValues(bytes);
    } else {
      for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
    }
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    return hex.slice(0, 8) + '-' + hex.slice(8, 12) + '-' + hex.slice(12, 16) + '-' + hex.slice(16, 20) + '-' + hex.slice(20);
  }

  // ---- Routing: #/channel/{c}/thread/{t} ------------------------------------------------------

  function parseHash() {
    const m = location.hash.match(/^#\/channel\/([^/]+)(?:\/thread\/([^/]+))?\/?$/);
    if (!m) return { channel: null, threadId: null };
    try {
      return { channel: decodeURIComponent(m[1]), threadId: m[2] ? decodeURIComponent(m[2]) : null };
    } catch (e) {
      return { channel: null, threadId: null };
    }
  }

  function hashFor(channel, threadId) {
    return '#/channel/' + enc(channel) + (threadId ? '/thread/' + enc(threadId) : '');
  }

  function navigate(channel, threadId, replace) {
    const target = hashFor(channel, threadId);
    if (location.hash !== target) {
      if (replace) {
        history.replaceState(null, '', target);
      } else {
        history.pushState(null, '', target);
      }
    }
    route();
  }

  function route() {
    const wanted = parseHash();
    if (!wanted.channel) {
      if (state.channels.length > 0) {
        navigate(state.channels[0].name, null, true);
      }
      return;
    }
    if (wanted.channel !== state.channel) {
      selectChannel(wanted.channel);
    }
    if (wanted.threadId !== state.threadId) {
      openThread(wanted.threadId);
    }
  }

  // ---- Channels and threads -------------------------------------------------------------------

  async function loadMe() {
    try {
      state.me = await api('GET', '/api/chat/me');
    } catch (e) {
      return;
    }
    if (!state.me) return;
    ui.me.hidden = false;
    ui.meName.textContent = state.me.name || state.me.id || '';
    ui.meEmail.textContent = state.me.email || '';
    ui.meAvatar.textContent = initials(state.me.name || state.me.email || state.me.id);
  }

  async function loadChannels() {
    for (let attempt = 0; ; attempt++) {
      try {
        const body = await api('GET', '/api/chat/channels');
        state.channels = (body && body.channels) || [];
        break;
      } catch (e) {
        ui.channelsEmpty.hidden = false;
        if (e.status === 401) {
          ui.channelsEmpty.textContent = 'This chat needs an API key. Reload the page to enter one.';
          return;
        }
        ui.channelsEmpty.textContent = 'Could not load channels (' + e.message + '). Retrying…';
        await sleep(Math.min(10000, 500 * 2 ** attempt));
      }
    }
    ui.channelsEmpty.textContent = 'No web channels are configured.';
    ui.channelsEmpty.hidden = state.channels.length > 0;
    renderChannels();
    route();
  }

  function channelInfo(name) {
    return state.channels.find((c) => c.name === name) || null;
  }

  function renderChannels() {
    ui.channelList.replaceChildren(...state.channels.map((c) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = hashFor(c.name, null);
      a.className = 'channel-item';
      a.dataset.testid = 'channel-item';
      a.dataset.channel = c.name;
      if (c.name === state.channel) a.setAttribute('aria-current', 'page');
      const name = document.createElement('span');
      name.className = 'channel-name';
      name.textContent = '# ' + c.name;
      a.append(name);
      if (c.description) {
        const d = document.createElement('span');
        d.className = 'channel-description';
        d.textContent = c.description;
        a.title = c.description;
        a.append(d);
      }
      li.append(a);
      return li;
    }));
  }

  function selectChannel(name) {
    state.channel = name;
    state.threads = [];
    renderChannels();
    ui.threadsSection.hidden = false;
    ui.threadsHeading.textContent = 'Threads in #' + name;
    ui.newThreadInput.placeholder = 'Start a new thread in #' + name + '…';
    ui.threadList.replaceChildren();
    ui.threadsEmpty.hidden = true;
    ui.newThreadError.hidden = true;
    loadThreads();
  }

  async function loadThreads() {
    const channel = state.channel;
    if (!channel) return;
    const gen = ++state.threadsGen;
    let body;
    try {
      body = await api('GET', '/api/chat/channels/' + enc(channel) + '/threads');
    } catch (e) {
      if (gen !== state.threadsGen) return;
      ui.threadsEmpty.hidden = false;
      ui.threadsEmpty.textContent = e.status === 404 ? 'There is no channel #' + channel + '.'
        : 'Could not load threads (' + e.message + ').';
      return;
    }
    if (gen !== state.threadsGen || channel !== state.channel) return;
    state.threads = (body && body.threads) || [];
    renderThreads();
  }

  /** Coalesces thread list refreshes caused by a burst of posts. */
  function refreshThreadsSoon() {
    if (state.threadsRefreshTimer) return;
    state.threadsRefreshTimer = setTimeout(() => {
      state.threadsRefreshTimer = null;
      loadThreads();
    }, 1500);
  }

  function renderThreads() {
    ui.threadsEmpty.textContent = 'No threads yet. Start one above.';
    ui.threadsEmpty.hidden = state.threads.length > 0;
    ui.threadList.replaceChildren(...state.threads.map((t) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = hashFor(t.channel || state.channel, t.threadId);
      a.className = 'thread-item';
      a.dataset.testid = 'thread-item';
      a.dataset.threadId = t.threadId;
      if (t.threadId === state.threadId) a.setAttribute('aria-current', 'page');
      const title = document.createElement('span');
      title.className = 'thread-item-title';
      title.textContent = t.title || 'Untitled thread';
      const when = document.createElement('time');
      when.className = 'thread-item-time';
      const at = t.lastActivity || t.createdAt;
      if (at) {
        when.dateTime = at;
        when.textContent = relativeTime(at);
        when.title = new Date(at).toLocaleString();
      }
      a.append(title, when);
      li.append(a);
      return li;
    }));
  }

  async function startThread(text, source) {
    const channel = state.channel;
    if (!channel || state.creatingThread) return;
    const messageId = newMessageId();
    state.creatingThread = true;
    const input = source === 'composer' ? ui.composerInput : ui.newThreadInput;
    const errorEl = source === 'composer' ? ui.composerError : ui.newThreadError;
    const button = source === 'composer' ? ui.composerButton : ui.newThreadButton;
    const label = button.textContent;
    let started = false;
    errorEl.hidden = true;
    input.disabled = true;
    button.disabled = true;
    button.textContent = 'Starting…';
    try {
      const created = await postWithRetry('/api/chat/channels/' + enc(channel) + '/threads',
        { text, messageId }, (attempt) => { button.textContent = 'Retrying (' + attempt + ')…'; });
      input.value = '';
      autosize(input);
      started = true;
      if (state.channel === channel) {
        loadThreads();
        navigate(channel, created.threadId, false);
      }
    } catch (e) {
      errorEl.textContent = 'Could not start the thread: ' + e.message + (e.retryable ? '. Try again.' : '');
      errorEl.hidden = false;
    } finally {
      state.creatingThread = false;
      input.disabled = false;
      button.disabled = false;
      button.textContent = label;
      updateComposer();
      // carry on in the new thread, or fix the text that could not be sent
      (started ? ui.composerInput : input).focus();
    }
  }

  // ---- Thread view ----------------------------------------------------------------------------

  function openThread(threadId) {
    closeStream();
    state.threadId = threadId;
    state.thread = null;
    state.threadMissing = false;
    state.posts.clear();
    state.postEls.clear();
    ui.posts.replaceChildren();
    ui.composerError.hidden = true;
    renderThreads();
    if (threadId) {
      ui.emptyState.hidden = true;
      ui.posts.hidden = false;
      openStream();
      fetchThread(threadId);
    } else {
      ui.posts.hidden = true;
      ui.emptyState.hidden = false;
      setConnection('idle');
    }
    renderHeader();
    updateComposer();
  }

  async function fetchThread(threadId) {
    let body;
    try {
      body = await api('GET', '/api/chat/threads/' + enc(threadId));
    } catch (e) {
      if (threadId !== state.threadId) return;
      if (e.status === 404) {
        state.threadMissing = true;
        closeStream();
        setConnection('idle');
        renderHeader();
        updateComposer();
      }
      return;
    }
    if (threadId !== state.threadId || !body) return;
    state.thread = { threadId: body.threadId, channel: body.channel, title: body.title };
    if (body.channel && body.channel !== state.channel) {
      // a link with the wrong channel: show the thread under its own channel
      navigate(body.channel, threadId, true);
    }
    for (const p of body.posts || []) mergePost(p);
    // the snapshot now holds every message this page sent successfully
    for (const [id, p] of state.pending) {
      if (p.threadId === threadId && p.status === 'sent') state.pending.delete(id);
    }
    renderHeader();
    scheduleRender();
  }

  function renderHeader() {
    const channel = state.channel ? channelInfo(state.channel) : null;
    if (state.threadMissing) {
      ui.title.textContent = 'Thread not found';
      ui.subtitle.textContent = 'It may have been removed, or the link is wrong.';
    } else if (state.threadId) {
      ui.title.textContent = (state.thread && state.thread.title) || 'Thread';
      ui.subtitle.textContent = '#' + state.channel + (channel && channel.agent ? ' · agent ' + channel.agent : '');
    } else if (state.channel) {
      ui.title.textContent = '#' + state.channel;
      ui.subtitle.textContent = channel && channel.description ? channel.description : '';
    } else {
      ui.title.textContent = 'Switchboard chat';
      ui.subtitle.textContent = '';
    }
    if (!state.threadId) {
      const title = ui.emptyState.querySelector('.empty-title');
      const detail = ui.emptyState.querySelector('.muted');
      if (state.channel) {
        title.textContent = 'Start a thread in #' + state.channel;
        detail.textContent = (channel && channel.description ? channel.description + '. ' : '')
          + 'Write below or use “New thread”; pick an earlier thread from the list to continue it.';
      }
    }
    document.title = state.threadId && state.thread && state.thread.title
      ? state.thread.title + ' · #' + state.channel + ' · Switchboard'
      : state.channel ? '#' + state.channel + ' · Switchboard' : 'Switchboard chat';
  }

  // ---- Live updates ---------------------------------------------------------------------------

  /** The thread's live events: SSE read with fetch, so that it can carry the API key. */
  function openStream() {
    closeStream();
    const threadId = state.threadId;
    if (!threadId) return;
    const gen = state.esGen;
    const stream = new AbortController();
    state.es = stream;
    setConnection(state.esRetry > 0 ? 'reconnecting' : 'connecting');
    readStream(threadId, gen, stream).then((again) => {
      if (gen !== state.esGen) return;
      state.es = null;
      if (again === 'stop') {
        setConnection('idle');
        return;
      }
      setConnection('reconnecting');
      const delay = again === 'now' ? 0 : Math.min(STREAM_RETRY_MAX_MS, 500 * 2 ** state.esRetry);
      if (again !== 'now') state.esRetry++;
      state.esTimer = setTimeout(() => {
        state.esTimer = null;
        if (gen === state.esGen && state.threadId === threadId) openStream();
      }, delay);
    });
  }

  /** Reads the stream until it ends; says what to do next: 'retry' (after a backoff), 'now' or 'stop'. */
  async function readStream(threadId, gen, stream) {
    const usedKey = auth.key;
    let res;
    try {
      res = await fetch('/api/chat/threads/' + enc(threadId) + '/events', {
        headers: withAuth({ Accept: 'text/event-stream' }),
        credentials: 'same-origin',
        cache: 'no-store',
        signal: stream.signal,
      });
    } catch (e) {
      return 'retry';
    }
    if (res.status === 401) {
      return renewKey(usedKey) ? 'now' : 'stop';
    }
    if (!res.ok || !res.body) {
      return 'retry';
    }
    if (gen !== state.esGen) return 'stop';
    state.esRetry = 0;
    setConnection('live');
    // anything that changed while we were not listening arrives with the snapshot
    fetchThread(threadId);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return 'retry';
        buffer += value.replace(/\r\n?/g, '\n');
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (gen === state.esGen) streamEvent(block);
        }
      }
    } catch (e) {
      return 'retry';
    }
  }

  /** One SSE event block: {@code event: post} with the post as JSON data; comments are keepalives. */
  function streamEvent(block) {
    let event = 'message';
    const data = [];
    for (const line of block.split('\n')) {
      if (!line || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (event !== 'post' || data.length === 0) return;
    let post;
    try {
      post = JSON.parse(data.join('\n'));
    } catch (e) {
      return;
    }
    mergePost(post);
    scheduleRender();
    refreshThreadsSoon();
  }

  function closeStream() {
    state.esGen++;
    if (state.esTimer) {
      clearTimeout(state.esTimer);
      state.esTimer = null;
    }
    if (state.es) {
      state.es.abort();
      state.es = null;
    }
  }

  function setConnection(kind) {
    ui.connection.dataset.state = kind;
    ui.connection.textContent = {
      idle: '',
      connecting: 'Connecting…',
      live: 'Live',
      reconnecting: 'Reconnecting…',
    }[kind] || '';
  }

  // ---- Posts ----------------------------------------------------------------------------------

  function time(v) {
    const t = v ? Date.parse(v) : NaN;
    return Number.isNaN(t) ? 0 : t;
  }

  /** Compares two ISO instants to the nanosecond (the server writes up to 9 fraction digits). */
  function compareInstants(a, b) {
    const pa = instantParts(a);
    const pb = instantParts(b);
    return pa[0] - pb[0] || pa[1] - pb[1];
  }

  function instantParts(v) {
    const m = typeof v === 'string' && v.match(/^(.*T\d\d:\d\d(?::\d\d)?)(?:\.(\d+))?(Z|[+-]\d\d:?\d\d)?$/);
    if (!m) return [time(v), 0];
    const seconds = Date.parse(m[1] + (m[3] || 'Z'));
    return [Number.isNaN(seconds) ? 0 : seconds, Number((m[2] || '').padEnd(9, '0').slice(0, 9))];
  }

  function num(v) {
    return typeof v === 'number' ? v : Number(v) || 0;
  }

  /** Upsert by id; an older version (by updatedAt) never overwrites a newer one. */
  function mergePost(post) {
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

  function scheduleRender() {
    if (state.renderQueued) return;
    state.renderQueued = true;
    requestAnimationFrame(() => {
      state.renderQueued = false;
      renderPosts();
    });
  }

  function orderedPosts() {
    // seq is the post's place in its thread
    return Array.from(state.posts.values()).sort((a, b) =>
      num(a.seq) - num(b.seq) || compareInstants(a.createdAt, b.createdAt) || String(a.id).localeCompare(String(b.id)));
  }

  function turnStates(posts) {
    const states = new Map();
    for (const p of posts) {
      if (p.kind === 'user' && p.state) states.set(p.id, p.state);
    }
    return states;
  }

  /** A structured answer's post: its id is derived from the question's (answer-<id> in threads older than that). */
  function answerTo(q) {
    return state.posts.get('web-answer-' + q.id) || state.posts.get('answer-' + q.id);
  }

  /**
   * The question still waiting for its answer, if any: the last question, while its turn waits for an answer. A plain
   * question is answered by the next user post; one that wants a structured answer (kagent) waits on after a typed
   * reply that could not answer it (several questions in one line), until its answer comes or its turn moves on.
   */
  function openQuestion(posts, states) {
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

  function renderPosts() {
    if (!state.threadId) return;
    const stick = isNearBottom();
    const posts = orderedPosts();
    const states = turnStates(posts);
    const question = openQuestion(posts, states);
    const wanted = [];
    for (const p of posts) {
      wanted.push(renderServerPost(p, states, question));
    }
    for (const p of state.pending.values()) {
      if (p.threadId === state.threadId) wanted.push(renderPendingPost(p));
    }
    // keep existing nodes (and their focus/selection) and only move what is out of place
    const keep = new Set(wanted);
    for (const el of Array.from(ui.posts.children)) {
      if (!keep.has(el)) el.remove();
    }
    wanted.forEach((el, i) => {
      if (ui.posts.children[i] !== el) ui.posts.insertBefore(el, ui.posts.children[i] || null);
    });
    for (const [id, el] of state.postEls) {
      if (!keep.has(el)) state.postEls.delete(id);
    }
    updateComposer(question);
    if (stick) scrollToBottom();
  }

  function renderServerPost(p, states, question) {
    const key = 'post:' + p.id;
    let el = state.postEls.get(key);
    if (el && el.dataset.kind !== (p.kind || '')) {
      el.remove();
      el = null;
    }
    if (!el) {
      el = createServerPost(p);
      state.postEls.set(key, el);
    }
    updateServerPost(el, p, states, question === p);
    return el;
  }

  function createServerPost(p) {
    const el = document.createElement('li');
    el.className = 'post post-' + safeClass(p.kind);
    el.dataset.testid = 'post';
    el.dataset.kind = p.kind || '';
    el.dataset.postId = p.id;
    if (p.kind === 'step') {
      return createStepPost(el);
    }
    if (p.kind === 'notice') {
      el.setAttribute('aria-label', 'Notice from Switchboard');
      const icon = document.createElement('span');
      icon.className = 'notice-icon';
      icon.setAttribute('aria-hidden', 'true');
      icon.textContent = 'i';
      const body = document.createElement('div');
      body.className = 'notice-body';
      body.append(textNode(''), timeEl(p.createdAt));
      el.append(icon, body);
      return el;
    }
    const agentName = (channelInfo(state.channel) || {}).agent || state.channel || 'agent';
    const author = p.kind === 'user'
      ? (p.author && (p.author.name || p.author.email || p.author.id)) || 'Someone'
      : agentName;
    const avatar = document.createElement('span');
    avatar.className = 'avatar';
    avatar.setAttribute('aria-hidden', 'true');
    avatar.textContent = p.kind === 'user' ? initials(author) : '✦';
    const body = document.createElement('div');
    body.className = 'post-body';
    const meta = document.createElement('div');
    meta.className = 'post-meta';
    const who = document.createElement('span');
    who.className = 'post-author';
    who.textContent = author;
    if (p.kind === 'user' && p.author && p.author.email) who.title = p.author.email;
    meta.append(who);
    if (p.kind === 'question') meta.append(tag('Question', 'question-tag'));
    meta.append(timeEl(p.createdAt));
    body.append(meta, textNode(''));
    el.append(avatar, body);
    return el;
  }

  /** Updates a post in place, so streamed text does not re-announce or re-create the whole post. */
  function updateServerPost(el, p, states, isOpenQuestion) {
    if (p.kind === 'step') {
      updateStepPost(el, p);
      return;
    }
    const turnState = p.kind === 'user' ? p.state : states.get(p.turnMessageId);
    // agent answers and questions carry their turn's state; notices only their own, if any
    const shownState = p.kind === 'agent' || p.kind === 'question' ? p.state || turnState : p.state;
    if (shownState) el.dataset.state = shownState; else delete el.dataset.state;
    if (p.turnMessageId) el.dataset.turnMessageId = p.turnMessageId;
    const text = el.querySelector('.post-text');
    if (text.textContent !== (p.text || '')) text.textContent = p.text || '';
    if (p.kind === 'user') {
      const meta = el.querySelector('.post-meta');
      const old = meta.querySelector('.badge');
      if (!old || old.dataset.state !== p.state) {
        if (old) old.remove();
        if (p.state) meta.append(badge(p.state));
      }
    }
    if (p.kind === 'agent') {
      const streaming = !!turnState && ACTIVE_STATES.has(turnState);
      text.classList.toggle('streaming', streaming);
      el.setAttribute('aria-busy', String(streaming));
      if (streaming) el.dataset.seenStreaming = 'true';
      // announce answers that finished while the page watched, not the history of the thread
      if (!streaming && turnState && el.dataset.seenStreaming === 'true' && el.dataset.announced !== 'true') {
        el.dataset.announced = 'true';
        announce(((channelInfo(state.channel) || {}).agent || 'The agent') + ' answered: ' + p.text.slice(0, 400));
      }
    }
    if (p.kind === 'question' && hitlType(p)) {
      updateHitl(el, p, isOpenQuestion);
      el.classList.toggle('question-open', isOpenQuestion);
    } else if (p.kind === 'question') {
      const body = el.querySelector('.post-body');
      const footer = body.querySelector('.question-footer');
      const open = String(isOpenQuestion);
      if (!footer || footer.dataset.open !== open) {
        if (footer) footer.remove();
        body.append(questionFooter(isOpenQuestion, ''));
      }
      el.classList.toggle('question-open', isOpenQuestion);
    }
  }

  function announce(message) {
    const region = $('announcer');
    if (!region) return;
    region.textContent = '';
    // a fresh text node after a tick makes screen readers read it even if it repeats
    setTimeout(() => { region.textContent = message; }, 50);
  }

  function questionFooter(open, draft) {
    const footer = document.createElement('div');
    footer.className = 'question-footer';
    footer.dataset.open = String(open);
    if (!open) {
      footer.append(tag('Answered or closed', 'muted small'));
      return footer;
    }
    const hint = document.createElement('p');
    hint.className = 'question-hint small';
    hint.textContent = 'The agent is waiting for your answer. Answer here or in the message box below: '
      + 'your next message in this thread is the answer.';
    const form = document.createElement('form');
    form.className = 'question-answer';
    form.autocomplete = 'off';
    const { label, input } = labelledInput('answer', 'Your answer', 'question-answer-input', 'question-answer-input',
      'Your answer…');
    input.value = draft;
    const button = document.createElement('button');
    button.type = 'submit';
    button.className = 'button primary small-button';
    button.dataset.testid = 'question-answer-button';
    button.textContent = 'Answer';
    form.append(label, input, button);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      input.value = '';
      sendMessage(text);
    });
    footer.append(hint, form);
    return footer;
  }

  // ---- kagent: approvals, ask-user questions, step cards ---------------------------------------
  // What the agent sends is untrusted: tool names, arguments, results, questions and choices all go into the page
  // with textContent (or as form values), never as HTML.

  const ARGS_LIMIT = 1500;
  const STEP_LIMIT = 2000;
  /** the card of each structured question -> the function that brings it up to date */
  const hitlUpdaters = new WeakMap();

  /** 'tool_approval' or 'ask_user' for a question that wants a structured answer; null for a plain one. */
  function hitlType(p) {
    const d = p && p.data;
    return d && typeof d === 'object' && (d.type === 'tool_approval' || d.type === 'ask_user') ? d.type : null;
  }

  function composerHintFor(question) {
    const type = hitlType(question);
    if (type === 'tool_approval') {
      return 'The agent is waiting for your approval above. You can also type “yes” to approve; '
        + 'anything else rejects it, with your words as the reason.';
    }
    if (type === 'ask_user') {
      const qs = Array.isArray(question.data.questions) ? question.data.questions : [];
      return 'The agent is waiting for your choices above.' + (qs.length === 1 ? ' You can also type your answer.' : '');
    }
    return 'The agent asked a question. Your next message answers it.';
  }

  /** JSON text pretty-printed; a JSON string as its text; anything that is not JSON as it is. */
  function prettyJson(value) {
    if (value === undefined || value === null) return '';
    if (typeof value !== 'string') {
      try {
        return JSON.stringify(value, null, 2);
      } catch (e) {
        return String(value);
      }
    }
    try {
      const v = JSON.parse(value);
      return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
    } catch (e) {
      return value;
    }
  }

  function count(n) {
    return Number(n).toLocaleString('en-US');
  }

  /** A <pre> of {@code text} cut after {@code limit} characters, saying so, with a "Show all" toggle. */
  /** A text input with a label only screen readers show (the placeholder says the same to everyone else). */
function labelledInput(idPrefix, labelText, className, testid, placeholder) {
  const id = idPrefix + '-' + Math.random().toString(36).slice(2);
  const label = document.createElement('label');
  label.className = 'visually-hidden';
  label.htmlFor = id;
  label.textContent = labelText;
  const input = document.createElement('input');
  input.type = 'text';
  input.id = id;
  input.className = className;
  input.dataset.testid = testid;
  input.placeholder = placeholder;
  return { label, input };
}

function clippedPre(text, limit, testid) {
    const wrap = document.createElement('div');
    wrap.className = 'clipped';
    const pre = document.createElement('pre');
    pre.className = 'code';
    pre.dataset.testid = testid;
    pre.tabIndex = 0; // scrollable by keyboard
    wrap.append(pre);
    if (text.length <= limit) {
      pre.textContent = text;
      return wrap;
    }
    let cut = limit;
    const c = text.charCodeAt(cut - 1);
    if (c >= 0xd800 && c <= 0xdbff) cut--; // not in the middle of a character
    const short = text.slice(0, cut) + '…';
    const row = document.createElement('div');
    row.className = 'clipped-note small muted';
    const note = document.createElement('span');
    note.dataset.testid = 'clipped-note';
    const toggle = document.createElement('button');
    toggle.type = 'button';
    toggle.className = 'link-button small';
    toggle.dataset.testid = 'show-all';
    const show = (all) => {
      pre.textContent = all ? text : short;
      wrap.dataset.truncated = String(!all);
      note.textContent = all ? 'All ' + count(text.length) + ' characters.'
        : 'Showing the first ' + count(cut) + ' of ' + count(text.length) + ' characters.';
      toggle.textContent = all ? 'Show less' : 'Show all';
      toggle.setAttribute('aria-expanded', String(all));
    };
    toggle.addEventListener('click', () => show(wrap.dataset.truncated === 'true'));
    show(false);
    row.append(note, ' ', toggle);
    wrap.append(row);
    return wrap;
  }

  // step cards: one tool call or one tool result, folded

  function createStepPost(el) {
    el.setAttribute('aria-label', 'Tool step');
    const details = document.createElement('details');
    details.className = 'step-card';
    details.dataset.testid = 'step-card';
    const summary = document.createElement('summary');
    summary.dataset.testid = 'step-summary';
    const body = document.createElement('div');
    body.className = 'step-body';
    details.append(summary, body);
    el.append(details);
    return el;
  }

  function updateStepPost(el, p) {
    const d = p.data && typeof p.data === 'object' ? p.data : {};
    const version = JSON.stringify([p.text, d]);
    if (el.dataset.version === version) return;
    el.dataset.version = version;
    const result = d.kind === 'result';
    const failed = result && d.error === true;
    const name = String(d.name || p.text || 'tool');
    el.dataset.stepKind = result ? 'result' : 'call';
    el.dataset.error = String(failed);
    const summary = el.querySelector('summary');
    const icon = tag(result ? (failed ? '✗' : '✓') : '🔧', 'step-icon');
    icon.setAttribute('aria-hidden', 'true');
    const label = tag(name, 'step-name');
    label.dataset.testid = 'step-name';
    const what = tag(result ? (failed ? 'failed' : 'result') : 'call', 'step-what muted small');
    summary.replaceChildren(icon, ' ', label, ' ', what, timeEl(p.createdAt));
    const heading = tag(result ? (failed ? 'Error' : 'Result') : 'Arguments', 'step-heading small muted');
    el.querySelector('.step-body').replaceChildren(heading, clippedPre(prettyJson(d.detail), STEP_LIMIT, 'step-detail'));
  }

  // questions that want a structured answer

  function updateHitl(el, p, open) {
    const body = el.querySelector('.post-body');
    const footer = body.querySelector('.question-footer');
    if (footer) footer.remove();
    let card = body.querySelector('.hitl');
    const version = JSON.stringify(p.data);
    if (!card || card.dataset.version !== version) {
      const fresh = hitlType(p) === 'tool_approval' ? approvalCard(p) : askUserCard(p);
      fresh.dataset.version = version;
      if (card) card.replaceWith(fresh); else body.append(fresh);
      card = fresh;
    }
    // kagent's display text of an ask-user request is its questions, which the card shows with their choices
    const text = el.querySelector('.post-text');
    const questions = hitlType(p) === 'ask_user' && Array.isArray(p.data.questions) ? p.data.questions : null;
    text.hidden = !!questions && questions.length > 0
      && (p.text || '').trim() === questions.map((q) => String((q && q.question) || '')).join('\n').trim();
    hitlUpdaters.get(card)(open);
  }

  /** What the card says about its answer, and whether it still takes one. */
  function hitlAnswerState(q, open) {
    const local = state.answers.get(q.id);
    const answered = answerTo(q);
    const busy = !!local && (local.status === 'sending' || local.status === 'sent');
    let status = '';
    let decision = local ? local.decision || '' : '';
    if (answered) {
      const who = answered.author && (answered.author.name || answered.author.email || answered.author.id);
      status = 'Answered: ' + (answered.text || '') + (who ? ' (' + who + ')' : '');
      if (!decision) decision = /^Approved\b/.test(answered.text || '') ? 'approve' : /^Rejected\b/.test(answered.text || '') ? 'reject' : '';
    } else if (local && local.status === 'sending') {
      status = 'Sending: ' + local.label + '…';
    } else if (local && local.status === 'sent') {
      status = 'Answered: ' + local.label;
    } else if (!open) {
      status = 'Not waiting for an answer.';
    }
    return {
      enabled: open && !busy && !answered,
      status,
      decision,
      error: local && local.status === 'failed' ? 'Not sent: ' + local.error : '',
    };
  }

  function hitlFooter(card) {
    const status = document.createElement('p');
    status.className = 'hitl-status small';
    status.dataset.testid = 'hitl-status';
    status.setAttribute('role', 'status');
    const error = document.createElement('p');
    error.className = 'error small';
    error.dataset.testid = 'hitl-error';
    error.setAttribute('role', 'alert');
    error.hidden = true;
    card.append(status, error);
    return (s) => {
      if (status.textContent !== s.status) status.textContent = s.status;
      status.hidden = !s.status;
      if (error.textContent !== s.error) error.textContent = s.error;
      error.hidden = !s.error;
      card.dataset.decision = s.decision;
      card.dataset.answerable = String(s.enabled);
    };
  }

  async function sendAnswer(q, body, label, decision) {
    const threadId = state.threadId;
    if (!threadId) return;
    state.answers.set(q.id, { status: 'sending', label, decision, error: null });
    scheduleRender();
    try {
      await postWithRetry('/api/chat/threads/' + enc(threadId) + '/answers', Object.assign({ questionId: q.id }, body));
    } catch (e) {
      state.answers.set(q.id, { status: 'failed', label, decision, error: e.message });
      scheduleRender();
      return;
    }
    state.answers.set(q.id, { status: 'sent', label, decision, error: null });
    announce('Answer sent: ' + label);
    scheduleRender();
    if (threadId === state.threadId) fetchThread(threadId);
    refreshThreadsSoon();
  }

  function approvalCard(q) {
    const d = q.data;
    const card = document.createElement('div');
    card.className = 'hitl hitl-approval';
    card.dataset.testid = 'approval';
    if (d.hint && d.hint !== q.text) {
      const hint = document.createElement('p');
      hint.className = 'hitl-hint';
      hint.dataset.testid = 'approval-hint';
      hint.textContent = d.hint;
      card.append(hint);
    }
    if (d.subagent) {
      card.append(tag('Asked by the subagent ' + d.subagent, 'hitl-subagent small muted'));
    }
    const tools = document.createElement('ol');
    tools.className = 'hitl-tools';
    tools.setAttribute('aria-label', 'Tool calls to approve');
    for (const t of Array.isArray(d.tools) ? d.tools : []) {
      const li = document.createElement('li');
      li.className = 'hitl-tool';
      li.dataset.testid = 'approval-tool';
      const name = document.createElement('div');
      name.className = 'hitl-tool-name';
      const icon = tag('🔧', 'step-icon');
      icon.setAttribute('aria-hidden', 'true');
      const n = tag(String((t && t.name) || 'tool'), '');
      n.dataset.testid = 'approval-tool-name';
      name.append(icon, ' ', n);
      li.append(name, clippedPre(prettyJson(t && t.args), ARGS_LIMIT, 'approval-tool-args'));
      tools.append(li);
    }
    const actions = document.createElement('div');
    actions.className = 'hitl-actions';
    const { label: reasonLabel, input: reason } = labelledInput('reason', 'Reason (optional)', 'hitl-reason',
      'approval-reason', 'Reason (optional)');
    reason.maxLength = 2000;
    const approve = document.createElement('button');
    approve.type = 'button';
    approve.className = 'button primary small-button';
    approve.dataset.testid = 'approval-approve';
    approve.textContent = 'Approve';
    const reject = document.createElement('button');
    reject.type = 'button';
    reject.className = 'button danger small-button';
    reject.dataset.testid = 'approval-reject';
    reject.textContent = 'Reject';
    actions.append(reasonLabel, reason, approve, reject);
    card.append(tools, actions);
    const footer = hitlFooter(card);
    const decide = (decision) => {
      const why = reason.value.trim();
      const body = { decision };
      if (why) body.reason = why;
      const label = decision === 'approve' ? 'Approved' : 'Rejected';
      sendAnswer(q, body, label + (why ? ': ' + why : ''), decision);
    };
    approve.addEventListener('click', () => decide('approve'));
    reject.addEventListener('click', () => decide('reject'));
    reason.addEventListener('keydown', (e) => {
      // Enter in the reason box rejects: a reason is what a rejection gives
      if (e.key === 'Enter' && !e.isComposing && reason.value.trim()) {
        e.preventDefault();
        decide('reject');
      }
    });
    hitlUpdaters.set(card, (open) => {
      const s = hitlAnswerState(q, open);
      approve.disabled = !s.enabled;
      reject.disabled = !s.enabled;
      reason.disabled = !s.enabled;
      approve.setAttribute('aria-pressed', String(s.decision === 'approve'));
      reject.setAttribute('aria-pressed', String(s.decision === 'reject'));
      approve.classList.toggle('chosen', s.decision === 'approve');
      reject.classList.toggle('chosen', s.decision === 'reject');
      footer(s);
    });
    return card;
  }

  function askUserCard(q) {
    const d = q.data;
    const card = document.createElement('div');
    card.className = 'hitl hitl-ask';
    card.dataset.testid = 'ask-user';
    const questions = Array.isArray(d.questions) ? d.questions : [];
    const prefix = 'ask-' + Math.random().toString(36).slice(2);
    const readers = []; // per question: () => its answer (a string, a list of strings) or null
    const inputs = [];
    questions.forEach((one, i) => {
      const fs = document.createElement('fieldset');
      fs.className = 'hitl-question';
      fs.dataset.testid = 'ask-question';
      const multiple = !!(one && one.multiple);
      fs.dataset.multiple = String(multiple);
      const legend = document.createElement('legend');
      legend.textContent = String((one && one.question) || 'Question ' + (i + 1));
      if (multiple) legend.append(tag(' (choose any)', 'muted small'));
      fs.append(legend);
      const choices = Array.isArray(one && one.choices) ? one.choices.map(String) : [];
      if (choices.length === 0) {
        // no choices offered: a free answer
        const input = document.createElement('input');
        input.type = 'text';
        input.className = 'hitl-free';
        input.dataset.testid = 'ask-free';
        input.setAttribute('aria-label', legend.textContent);
        fs.append(input);
        inputs.push(input);
        readers.push(() => (input.value.trim() ? input.value.trim() : null));
      } else {
        const boxes = choices.map((choice, j) => {
          const label = document.createElement('label');
          label.className = 'hitl-choice';
          const input = document.createElement('input');
          input.type = multiple ? 'checkbox' : 'radio';
          input.name = prefix + '-' + i;
          input.value = choice;
          input.id = prefix + '-' + i + '-' + j;
          input.dataset.testid = 'ask-choice';
          label.append(input, ' ', tag(choice, ''));
          fs.append(label);
          inputs.push(input);
          return input;
        });
        readers.push(() => {
          const chosen = boxes.filter((b) => b.checked).map((b) => b.value);
          if (chosen.length === 0) return null;
          return multiple ? chosen : chosen[0];
        });
      }
      card.append(fs);
    });
    const actions = document.createElement('div');
    actions.className = 'hitl-actions';
    const send = document.createElement('button');
    send.type = 'button';
    send.className = 'button primary small-button';
    send.dataset.testid = 'ask-send';
    send.textContent = 'Send';
    const missing = tag('', 'muted small');
    actions.append(send, missing);
    card.append(actions);
    const footer = hitlFooter(card);
    let enabled = false;
    const refreshSend = () => {
      const left = readers.filter((r) => r() === null).length;
      send.disabled = !enabled || left > 0 || readers.length === 0;
      missing.textContent = enabled && left > 0 ? (left === 1 ? 'Answer the question to send.'
        : 'Answer all ' + readers.length + ' questions to send.') : '';
    };
    card.addEventListener('change', refreshSend);
    card.addEventListener('input', refreshSend);
    send.addEventListener('click', () => {
      const answers = readers.map((r) => r());
      if (answers.some((a) => a === null)) return;
      const label = answers.map((a) => (Array.isArray(a) ? a.join(', ') : a)).join('; ');
      sendAnswer(q, { answers }, label, '');
    });
    hitlUpdaters.set(card, (open) => {
      const s = hitlAnswerState(q, open);
      enabled = s.enabled;
      for (const input of inputs) input.disabled = !enabled;
      refreshSend();
      footer(s);
    });
    return card;
  }

  function renderPendingPost(p) {
    const key = 'pending:' + p.messageId;
    let el = state.postEls.get(key);
    const version = [p.status, p.error].join('\u0000');
    if (el && el.dataset.version === version) return el;
    const fresh = document.createElement('li');
    fresh.className = 'post post-user post-pending';
    fresh.dataset.testid = 'post';
    fresh.dataset.kind = 'user';
    fresh.dataset.pending = 'true';
    fresh.dataset.state = p.status;
    fresh.dataset.postId = p.messageId;
    fresh.dataset.version = version;
    const name = state.me ? state.me.name || state.me.email || state.me.id : 'You';
    const avatar = document.createElement('span');
    avatar.className = 'avatar';
    avatar.setAttribute('aria-hidden', 'true');
    avatar.textContent = initials(name);
    const body = document.createElement('div');
    body.className = 'post-body';
    const meta = document.createElement('div');
    meta.className = 'post-meta';
    const who = document.createElement('span');
    who.className = 'post-author';
    who.textContent = name;
    const label = { posting: 'Posting…', retrying: 'Retrying…', sent: 'Sent', unsent: 'Not sent' }[p.status] || p.status;
    meta.append(who, timeEl(p.createdAt), tag(label, 'badge ' + (p.status === 'unsent' ? 'badge-bad' : 'badge-active')));
    body.append(meta, textNode(p.text));
    if (p.status === 'unsent') {
      const row = document.createElement('div');
      row.className = 'pending-actions';
      const why = document.createElement('span');
      why.className = 'error small';
      why.textContent = p.error ? 'Could not send: ' + p.error + '.' : 'Could not send.';
      const retry = document.createElement('button');
      retry.type = 'button';
      retry.className = 'button small-button';
      retry.dataset.testid = 'pending-retry';
      retry.textContent = 'Retry';
      retry.addEventListener('click', () => deliver(p));
      const discard = document.createElement('button');
      discard.type = 'button';
      discard.className = 'button small-button ghost';
      discard.textContent = 'Discard';
      discard.addEventListener('click', () => {
        state.pending.delete(p.messageId);
        scheduleRender();
      });
      row.append(why, retry, discard);
      body.append(row);
    }
    fresh.append(avatar, body);
    if (el && el.parentNode) el.replaceWith(fresh);
    state.postEls.set(key, fresh);
    return fresh;
  }

  function textNode(text) {
    const div = document.createElement('div');
    div.className = 'post-text';
    div.dataset.testid = 'post-text';
    div.textContent = text || '';
    return div;
  }

  function timeEl(iso) {
    const t = document.createElement('time');
    t.className = 'post-time';
    if (iso) {
      const d = new Date(iso);
      if (!Number.isNaN(d.getTime())) {
        t.dateTime = iso;
        t.textContent = d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
        t.title = d.toLocaleString();
      }
    }
    return t;
  }

  function badge(s) {
    const kind = ACTIVE_STATES.has(s) ? 'badge-active' : WAITING_STATES.has(s) ? 'badge-waiting'
      : BAD_STATES.has(s) ? 'badge-bad' : s === 'completed' ? 'badge-good' : '';
    const b = tag(STATE_LABELS[s] || s.replace(/_/g, ' '), 'badge ' + kind);
    b.dataset.testid = 'post-state';
    b.dataset.state = s;
    b.setAttribute('aria-label', 'State: ' + (STATE_LABELS[s] || s));
    return b;
  }

  function tag(text, className) {
    const s = document.createElement('span');
    s.className = className;
    s.textContent = text;
    return s;
  }

  // ---- Sending --------------------------------------------------------------------------------

  function sendMessage(text) {
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
  async function deliver(p) {
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

  function updateComposer(question) {
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

  // ---- Helpers --------------------------------------------------------------------------------

  function isNearBottom() {
    const s = ui.scroller;
    return s.scrollHeight - s.scrollTop - s.clientHeight < 120;
  }

  function scrollToBottom() {
    ui.scroller.scrollTop = ui.scroller.scrollHeight;
  }

  function initials(name) {
    const words = String(name || '?').replace(/@.*/, '').split(/[\s._-]+/).filter(Boolean);
    const letters = words.length > 1 ? words[0][0] + words[1][0] : (words[0] || '?').slice(0, 2);
    return letters.toUpperCase();
  }

  function safeClass(s) {
    return String(s || 'unknown').replace(/[^a-z0-9_-]/gi, '');
  }

  function relativeTime(iso) {
    const t = Date.parse(iso);
    if (Number.isNaN(t)) return '';
    const s = Math.max(0, (Date.now() - t) / 1000);
    if (s < 45) return 'just now';
    if (s < 3600) return Math.round(s / 60) + ' min ago';
    if (s < 86400) return Math.round(s / 3600) + ' h ago';
    return new Date(t).toLocaleDateString();
  }

  function autosize(textarea) {
    const max = parseFloat(getComputedStyle(textarea).maxHeight) || 220;
    textarea.style.height = 'auto';
    textarea.style.height = Math.min(textarea.scrollHeight, max) + 'px';
    textarea.style.overflowY = textarea.scrollHeight > max ? 'auto' : 'hidden';
  }

  /** Enter submits, Shift+Enter (or Enter while composing with an input method) inserts a newline. */
  function submitOnEnter(textarea, form) {
    textarea.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey && !e.isComposing && e.keyCode !== 229) {
        e.preventDefault();
        form.requestSubmit ? form.requestSubmit() : form.dispatchEvent(new Event('submit', { cancelable: true }));
      }
    });
    textarea.addEventListener('input', () => autosize(textarea));
  }

  // ---- Wiring ---------------------------------------------------------------------------------

  ui.composer.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = ui.composerInput.value.trim();
    if (!text || ui.composerInput.disabled) return;
    ui.composerError.hidden = true;
    if (state.threadId) {
      ui.composerInput.value = '';
      autosize(ui.composerInput);
    }
    sendMessage(text);
  });

  ui.newThreadForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = ui.newThreadInput.value.trim();
    if (text) startThread(text, 'sidebar');
  });

  submitOnEnter(ui.composerInput, ui.composer);
  submitOnEnter(ui.newThreadInput, ui.newThreadForm);

  window.addEventListener('hashchange', route);
  window.addEventListener('popstate', route);

  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible') return;
    if (state.threadId && !state.es && !state.threadMissing) {
      state.esRetry = 0;
      openStream();
    }
    loadThreads();
  });

  setInterval(() => {
    if (document.visibilityState === 'visible') loadThreads();
  }, THREADS_POLL_MS);

  // who we are first: it is where the page learns whether it needs an API key
  // the first call may ask for an API key with a modal prompt: only once the page has loaded, which a prompt
  // opened earlier would hold up (and with it anything waiting for the page, a browser test's navigation included)
  const loaded = document.readyState === 'complete' ? Promise.resolve()
    : new Promise((resolve) => window.addEventListener('load', () => setTimeout(resolve, 0), { once: true }));
  loaded.then(loadMe).finally(loadChannels);
})();
