// The approvals inbox: runs waiting for a person (GET /runs?pending=true), and the recent runs.
import { api, ApiError, DECIDED_SHOWN_MS, el, held, money, pendingCard, signIn, statusBadge, tickWaiting } from './api.js';

const REFRESH_MS = 2000;
const inbox = document.getElementById('inbox');
const count = document.getElementById('waiting-count');
const runsBody = document.querySelector('#runs tbody');
const schedulesBody = document.querySelector('#schedules tbody');
/** Cards on screen by `runId/callKey`, kept across refreshes so a half-typed reason survives. */
const cards = new Map();
let me = null;

async function refresh() {
  const [{ runs: waiting }, { runs: recent }, { schedules }] = await Promise.all([api('GET', '/runs?pending=true'), api('GET', '/runs?limit=25'), api('GET', '/schedules')]);
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
  schedulesBody.replaceChildren(...schedules.map(scheduleRow));
  if (!schedules.length) schedulesBody.append(el('tr', {}, el('td', { colspan: 6, class: 'empty' }, 'No scheduled agents (npm run agent -- schedule create).')));
}

/** One scheduled agent: its times, state, goal, next time and the run it started last. */
function scheduleRow(s) {
  const when = [...s.cron, ...s.everyMs.map((ms) => `every ${ms / 1000} s`)].join('; ') + (s.timeZone !== 'UTC' ? ` (${s.timeZone})` : '');
  const last = s.recentRuns.at(-1);
  return el(
    'tr',
    { dataset: { scheduleId: s.id } },
    el('td', {}, el('code', {}, s.id)),
    el('td', { title: s.note ?? '' }, el('span', { class: `badge status-${s.paused ? 'interrupted' : 'running'}` }, s.paused ? 'paused' : 'active')),
    el('td', {}, when),
    el('td', { class: 'goal-cell', title: s.goal }, s.goal),
    el('td', {}, s.nextRunTimes[0] && !s.paused ? new Date(s.nextRunTimes[0]).toLocaleString([], { hour12: false }) : '–'),
    el('td', {}, last ? el('a', { href: `/ui/runs/${encodeURIComponent(last.runId)}` }, last.runId) : '–'),
  );
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
