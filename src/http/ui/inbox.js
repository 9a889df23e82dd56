// The approvals inbox: runs waiting for a person (GET /runs?pending=true), and the recent runs.
import { api, ApiError, DECIDED_SHOWN_MS, el, held, money, pendingCard, signIn, statusBadge, tickWaiting } from './api.js';

const REFRESH_MS = 2000;
const inbox = document.getElementById('inbox');
const count = document.getElementById('waiting-count');
const runsBody = document.querySelector('#runs tbody');
/** Cards on screen by `runId/callKey`, kept across refreshes so a half-typed reason survives. */
const cards = new Map();
let me = null;

async function refresh() {
  const [{ runs: waiting }, { runs: recent }] = await Promise.all([api('GET', '/runs?pending=true'), api('GET', '/runs?limit=25')]);
  // Cards already shown stay where they are (moving a node would drop the focus of a half-typed reason).
  const keys = new Set();
  for (const run of waiting.filter((r) => r.pending)) {
    const key = `${run.runId}/${run.pending.callKey}`;
    keys.add(key);
    if (!cards.has(key)) {
      const card = pendingCard(run, me, () => setTimeout(() => void tick(), DECIDED_SHOWN_MS + 100));
      cards.set(key, card);
      inbox.append(card);
    }
  }
  for (const [key, card] of cards) {
    if (!keys.has(key) && !held(card)) {
      card.remove();
      cards.delete(key);
    }
  }
  inbox.querySelector(':scope > .empty, :scope > .error')?.remove();
  if (!cards.size) inbox.append(el('p', { class: 'empty' }, 'Nothing waits for you.'));
  count.textContent = cards.size ? String(cards.size) : '';
  document.title = `${cards.size ? `(${cards.size}) ` : ''}Approvals · agent harness`;
  runsBody.replaceChildren(
    ...recent.map((run) =>
      el(
        'tr',
        { dataset: { runId: run.runId } },
        el('td', {}, el('a', { href: `/ui/runs/${encodeURIComponent(run.runId)}` }, run.runId)),
        el('td', {}, statusBadge(run.status)),
        el('td', { class: 'goal-cell', title: run.goal ?? '' }, run.goal ?? ''),
        el('td', {}, el('code', {}, run.model ?? '')),
        el('td', { class: 'num' }, run.turns ?? '–'),
        el('td', { class: 'num' }, money(run.costUsd)),
        el('td', { title: run.startedAt }, new Date(run.startedAt).toLocaleString([], { hour12: false })),
      ),
    ),
  );
  if (!recent.length) runsBody.append(el('tr', {}, el('td', { colspan: 7, class: 'empty' }, 'No runs yet.')));
}

async function tick() {
  try {
    await refresh();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return void start();
    inbox.replaceChildren(el('p', { class: 'error' }, `Could not load the inbox: ${error.message}`));
  }
}

let timer = null;
async function start() {
  clearInterval(timer);
  me = await signIn(start);
  if (!me) {
    inbox.replaceChildren(el('p', { class: 'empty' }, 'Sign in with an access token to see the inbox.'));
    return;
  }
  await tick();
  timer = setInterval(() => void tick(), REFRESH_MS);
}

tickWaiting();
void start();
