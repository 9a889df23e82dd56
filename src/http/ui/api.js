// Shared by the inbox and the run page: the token, API calls, who is signed in, small DOM helpers.
// Plain ES module, no build step.

const TOKEN_KEY = 'agent-harness-token';

export const token = {
  get: () => localStorage.getItem(TOKEN_KEY) ?? '',
  set: (value) => (value ? localStorage.setItem(TOKEN_KEY, value) : localStorage.removeItem(TOKEN_KEY)),
};

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.message ?? `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/** Calls the API with the stored bearer token; resolves with the JSON body, rejects with ApiError. */
export async function api(method, path, body) {
  const headers = {};
  if (token.get()) headers.authorization = `Bearer ${token.get()}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const json = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, json);
  return json;
}

/**
 * The URL of a run's event stream, resuming after event `after`. EventSource sends no headers, so with a
 * token the URL carries a ticket minted for it (it opens this run's stream for a minute), never the token.
 */
export async function eventsUrl(runId, after = 0) {
  const path = `/runs/${encodeURIComponent(runId)}/events`;
  const query = new URLSearchParams();
  if (token.get()) query.set('ticket', (await api('POST', `${path}/ticket`)).ticket);
  if (after > 0) query.set('after', String(after));
  return query.size ? `${path}?${query}` : path;
}

/** `el('div', {class: 'x', onclick: f}, child, 'text')`: a DOM element, children appended. */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child instanceof Node ? child : String(child));
  return node;
}

export const money = (usd) => (usd === null || usd === undefined ? '–' : `$${usd < 0.01 ? usd.toFixed(6) : usd.toFixed(4)}`);

export function ago(iso) {
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
}

export const time = (iso) => (iso ? new Date(iso).toLocaleTimeString([], { hour12: false }) : '');

export const statusBadge = (status) => el('span', { class: `badge status-${status}`, 'data-status': status }, status.replaceAll('_', ' '));
export const riskBadge = (risk) => el('span', { class: `badge risk-${risk}` }, `${risk} risk`);

/**
 * Who the token is (GET /me), shown in the header with a token form; resolves with {name, roles} or
 * null while no valid token is given (the form is shown, and `onChange` runs once one is).
 */
export async function signIn(onChange) {
  const slot = document.getElementById('identity');
  let me = null;
  try {
    me = await api('GET', '/me');
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
  }
  slot.replaceChildren();
  if (me) {
    slot.append(el('span', { class: 'who' }, me.name, el('span', { class: 'roles' }, me.roles.join(' · '))));
    if (me.authRequired) slot.append(el('button', { class: 'link', onclick: () => (token.set(''), location.reload()) }, 'sign out'));
    return { ...me, can: (role) => me.roles.includes(role) };
  }
  const input = el('input', { type: 'password', placeholder: 'paste your access token', autocomplete: 'off', 'aria-label': 'access token' });
  const form = el('form', { class: 'token-form', onsubmit: (event) => (event.preventDefault(), token.set(input.value.trim()), onChange()) }, input, el('button', { type: 'submit' }, 'Sign in'));
  slot.append(form);
  if (token.get()) slot.append(el('span', { class: 'error' }, 'that token was refused'));
  return null;
}

/**
 * A pending approval or question as a card with its actions: approve (quoting the exact argsHash shown),
 * reject with a reason, or answer. `done(message)` runs after the run took the decision. While a decision
 * is out, and for `DECIDED_SHOWN_MS` after, the card is `held`: a refresh must not remove it.
 */
export function pendingCard(run, me, done) {
  const p = run.pending;
  const status = el('p', { class: 'outcome', role: 'status' });
  const fail = (error) => {
    status.className = 'outcome error';
    status.textContent = error instanceof ApiError ? `${error.status}: ${error.message}` : String(error);
  };
  const busy = (buttons, on) => buttons.forEach((b) => (b.disabled = on));
  // `data-state` tells the inbox's refresh to keep the card while its request is out and while the
  // outcome is shown: the run may leave the pending list before the request returns.
  const act = async (buttons, request, verb) => {
    busy(buttons, true);
    card.dataset.state = 'deciding';
    try {
      await request();
      status.className = 'outcome ok';
      status.textContent = `${verb} ✓`;
      card.dataset.state = 'decided';
      card.dataset.decidedAt = String(Date.now());
      done(verb);
    } catch (error) {
      delete card.dataset.state;
      fail(error);
      busy(buttons, false);
    }
  };
  const canDecide = me?.can('approver');
  const head = el(
    'header',
    {},
    el('h3', {}, p.kind === 'approval' ? el('code', {}, p.toolName) : 'Question'),
    p.kind === 'approval' ? riskBadge(p.risk) : el('span', { class: 'badge status-waiting_input' }, 'needs an answer'),
    el('span', { class: 'waiting', 'data-since': p.requestedAt, title: p.requestedAt }, `waiting ${ago(p.requestedAt)}`),
  );
  const goal = el(
    'p',
    { class: 'goal' },
    el('a', { href: `/ui/runs/${encodeURIComponent(run.runId)}` }, run.runId),
    // A child run (an agent called as a tool): deciding here resumes its parent's call.
    run.parentRunId ? el('span', { class: 'parent' }, ' (for ', el('a', { href: `/ui/runs/${encodeURIComponent(run.parentRunId)}` }, run.parentRunId), ')') : '',
    ' — ',
    run.goal ?? '',
  );
  const card = el('article', { class: 'card pending', dataset: { runId: run.runId, callKey: p.callKey } }, head, goal);
  if (p.kind === 'approval') {
    card.append(
      el('p', { class: 'why' }, p.why),
      el('pre', { class: 'args', 'aria-label': 'arguments' }, JSON.stringify(p.args, null, 2)),
      el('p', { class: 'hash' }, 'argsHash ', el('code', {}, p.argsHash), ' · call ', el('code', {}, p.callKey)),
    );
    const reason = el('input', { type: 'text', name: 'reason', placeholder: 'reason (tells the model why)', maxlength: 2000 });
    const approve = el('button', { class: 'approve', type: 'button' }, 'Approve');
    const reject = el('button', { class: 'reject', type: 'button' }, 'Reject');
    const decide = (body, verb) => act([approve, reject], () => api('POST', `/runs/${encodeURIComponent(run.runId)}/approvals/${encodeURIComponent(p.callKey)}`, body), verb);
    approve.addEventListener('click', () => decide({ decision: 'approve', argsHash: p.argsHash }, 'approved'));
    reject.addEventListener('click', () => decide({ decision: 'reject', ...(reason.value.trim() ? { reason: reason.value.trim() } : {}) }, 'rejected'));
    if (!canDecide) busy([approve, reject], true);
    card.append(el('div', { class: 'actions' }, approve, reason, reject));
  } else {
    card.append(el('p', { class: 'question' }, p.question));
    const text = el('textarea', { name: 'answer', rows: 2, placeholder: 'your answer', maxlength: 16384 });
    const send = el('button', { class: 'approve', type: 'button' }, 'Answer');
    send.addEventListener('click', () => {
      if (!text.value.trim()) return fail('write an answer first');
      void act([send], () => api('POST', `/runs/${encodeURIComponent(run.runId)}/answer`, { text: text.value, callKey: p.callKey }), 'answered');
    });
    if (!canDecide) send.disabled = true;
    card.append(el('div', { class: 'actions' }, text, send));
  }
  if (!canDecide) card.append(el('p', { class: 'hint' }, 'Your token has no approver role: you can look, not decide.'));
  card.append(status);
  return card;
}

export const DECIDED_SHOWN_MS = 2000;

export const held = (card) =>
  card.dataset.state === 'deciding' || (card.dataset.state === 'decided' && Date.now() - Number(card.dataset.decidedAt) < DECIDED_SHOWN_MS);

/** Keeps every "waiting …" label current. */
export function tickWaiting() {
  setInterval(() => {
    for (const node of document.querySelectorAll('[data-since]')) node.textContent = `waiting ${ago(node.dataset.since)}`;
  }, 1000);
}
