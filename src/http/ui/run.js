// A run's page: its state, what it waits for, the live event stream (EventSource, resumed by the browser
// with Last-Event-ID; a reload replays the run from its first event) and the trace as a table.
import { api, ApiError, ago, DECIDED_SHOWN_MS, el, eventsUrl, held, money, pendingCard, signIn, statusBadge, tickWaiting, time } from './api.js';

const runId = decodeURIComponent(location.pathname.replace(/^\/ui\/runs\//, ''));
const $ = (id) => document.getElementById(id);
const stream = $('stream');
const traceBody = document.querySelector('#trace tbody');
const TERMINAL = new Set(['completed', 'failed', 'max_turns_exceeded', 'budget_exceeded', 'interrupted']);
/** Events that change the state shown above the stream (the state is read again after them). */
const STATE_EVENTS = new Set(['turn', 'tool_result', 'tool_denied', 'approval_required', 'approval_decided', 'input_required', 'input_received', 'claim_warning', 'run_stopped', 'continued_as_new']);

let me = null;
let state = null;
let source = null;
let lastEventId = 0;

document.title = `${runId} · agent harness`;
$('run-id').textContent = runId;

// ── State: read on load and after the events that change it ─────────────────────────────────────────
let stateTimer = null;
let childTimer = null;
const CHILD_REFRESH_MS = 2000;
function refreshStateSoon() {
  clearTimeout(stateTimer);
  stateTimer = setTimeout(() => void refreshState(), 150);
}

async function refreshState() {
  try {
    state = await api('GET', `/runs/${encodeURIComponent(runId)}`);
    $('problem').hidden = true;
  } catch (error) {
    $('problem').hidden = false;
    $('problem').textContent = error instanceof ApiError && error.status === 404 ? `No run with id "${runId}".` : `Could not read the run: ${error.message}`;
    return;
  }
  renderState();
}

function renderState() {
  const s = state;
  $('status').replaceChildren(statusBadge(s.status));
  $('goal').textContent = s.goal;
  $('meta').replaceChildren(
    el('code', {}, s.model),
    s.agentTurns?.length ? ` · ${agentsInCharge(s.agentTurns)}` : '',
    ` · started ${new Date(s.startedAt).toLocaleString([], { hour12: false })}`,
    s.progress && !TERMINAL.has(s.status) ? el('span', { class: 'progress-label' }, ` · ${s.progress}`) : '',
  );
  const limits = s.limits;
  $('stats').replaceChildren(
    stat('turns', `${s.totalTurns}`, limits ? `of ${limits.maxTurns}` : '', limits ? s.totalTurns / limits.maxTurns : null),
    stat('cost', money(s.totalCostUsd), limits ? `of ${money(limits.maxBudgetUsd)} budget` : '', limits ? s.totalCostUsd / limits.maxBudgetUsd : null),
    stat('tool runs', `${s.toolRuns}`, `${s.toolCalls} ${s.toolCalls === 1 ? 'call' : 'calls'}`, null),
    stat('tokens', `${s.usage.promptTokens.toLocaleString()} in`, `${s.usage.completionTokens.toLocaleString()} out`, null),
  );
  const pending = $('pending');
  // What holds this run: its own pending call, else a child (an agent called as a tool) waiting for a person,
  // decided on the child's run.
  const child = s.pending ? null : s.children?.find((c) => c.pending);
  const waiting = s.pending
    ? { runId, goal: s.goal, pending: s.pending }
    : child && { runId: child.runId, parentRunId: runId, goal: `${child.agent ?? 'research'}: ${child.question}`, pending: child.pending };
  const key = waiting ? `${waiting.runId} ${waiting.pending.callKey}` : '';
  const shown = pending.firstElementChild;
  // A card whose decision was just taken keeps its outcome on screen a moment before it goes.
  if (pending.dataset.key !== key && shown && held(shown)) setTimeout(renderState, DECIDED_SHOWN_MS);
  else if (pending.dataset.key !== key) {
    pending.dataset.key = key;
    pending.replaceChildren(...(waiting ? [pendingCard(waiting, me, refreshStateSoon)] : []));
  }
  const answer = $('answer');
  if (TERMINAL.has(s.status)) {
    answer.hidden = false;
    answer.replaceChildren(
      el('h2', {}, s.status === 'completed' ? 'Answer' : `Stopped: ${s.status.replaceAll('_', ' ')}`),
      s.output ? el('p', { class: 'output' }, s.output) : '',
      s.interruption?.type === 'cancelled' ? el('p', {}, `Cancelled: ${s.interruption.reason}`) : '',
      s.error ? el('p', { class: 'error' }, s.error) : '',
      s.receipt?.length ? el('ul', { class: 'receipt' }, ...s.receipt.map(receiptItem)) : '',
      ...(s.warnings ?? []).map((w) => el('p', { class: 'warning' }, `⚠ ${w.message}`)),
      s.reason && s.status !== 'completed' ? el('p', { class: 'hint' }, `reason: ${s.reason}`) : '',
    );
  }
  $('cancel').hidden = TERMINAL.has(s.status) || !me?.can('operator');
  // A child's wait is not an event of this run: while a child runs, the state is read again now and then.
  clearTimeout(childTimer);
  if (!TERMINAL.has(s.status) && s.children?.some((c) => c.status === 'running')) childTimer = setTimeout(() => void refreshState(), CHILD_REFRESH_MS);
}

/** One side-effect call as the run's receipt records it (what really happened, not what the model said), and the agent that made it. */
function receiptItem(entry) {
  const args = Object.values(entry.args).join(' ');
  return el('li', {}, el('span', { class: `outcome-${entry.outcome}` }, entry.outcome.replace('_', ' ')), ' ', el('code', {}, entry.tool), args ? ` ${args}` : '', entry.detail ? ` — ${entry.detail}` : '', entry.agent ? el('span', { class: 'agent' }, ` (by ${entry.agent})`) : '');
}

/** Who was in charge of which turns: `agent support turns 1–2 → billing from turn 3`. */
function agentsInCharge(turns) {
  return turns.map((t, i) => (i + 1 < turns.length ? `${t.agent} turns ${t.fromTurn}–${turns[i + 1].fromTurn - 1}` : `${t.agent} from turn ${t.fromTurn}`)).join(' → ');
}

function stat(label, value, sub, fraction) {
  const box = el('div', { class: 'stat', dataset: { stat: label } }, el('span', { class: 'label' }, label), el('span', { class: 'value' }, value), el('span', { class: 'sub' }, sub));
  if (fraction !== null) {
    const bar = el('span', { class: 'bar' }, el('span', { class: fraction >= 1 ? 'fill over' : 'fill' }));
    bar.firstChild.style.width = `${Math.min(100, Math.round(fraction * 100))}%`;
    box.append(bar);
  }
  return box;
}

// ── The live stream ──────────────────────────────────────────────────────────────────────────────────
/** Fresh connections refused in a row (a new ticket each time); after `MAX_REFUSED` the page gives up. */
let refused = 0;
const MAX_REFUSED = 3;

async function connect() {
  source?.close();
  setConnection('connecting');
  let url;
  try {
    url = await eventsUrl(runId, lastEventId);
  } catch (error) {
    setConnection('closed');
    $('problem').hidden = false;
    $('problem').textContent = `Could not open the live stream: ${error.message}`;
    return;
  }
  source = new EventSource(url);
  source.onopen = () => {
    refused = 0;
    setConnection('live');
  };
  source.onmessage = (message) => {
    const id = Number(message.lastEventId);
    if (id <= lastEventId) return; // never twice
    lastEventId = id;
    stream.dataset.lastEventId = String(id);
    const event = JSON.parse(message.data);
    render(id, event);
    if (event.seq !== undefined) traceRow(id, event);
    if (STATE_EVENTS.has(event.type)) refreshStateSoon();
    if (event.type === 'run_stopped') {
      source.close();
      setConnection('ended');
    }
  };
  source.onerror = () => {
    // Not CLOSED: the browser reconnects by itself, sending Last-Event-ID. CLOSED: the server said there is
    // nothing more (204), or refused us: most likely the ticket had expired (it lasts a minute) when the
    // browser reconnected with it, so a new connection gets a new ticket and resumes after the last event.
    if (source.readyState !== EventSource.CLOSED) return setConnection('reconnecting');
    if (state && TERMINAL.has(state.status)) return setConnection('ended');
    if (++refused > MAX_REFUSED) return setConnection('closed');
    setConnection('reconnecting');
    // If the run ended meanwhile, the new connection gets the rest through run_stopped, or a 204 (ended).
    setTimeout(() => void refreshState().then(connect), 500 * refused);
  };
}

function setConnection(what) {
  $('connection').textContent = what;
  $('connection').className = `connection ${what}`;
  stream.dataset.connection = what;
}

const deltaTargets = new Map();

function render(id, e) {
  const row = (cls, ...children) => stream.append(el('div', { class: `event ${cls}`, dataset: { eventId: id, type: e.type } }, ...children));
  const call = () => (e.callKey ? el('code', { class: 'call' }, e.callKey) : '');
  switch (e.type) {
    case 'model_delta': {
      // Streamed model text: one bubble per model call, growing as the text arrives.
      let bubble = deltaTargets.get(e.callId);
      if (!bubble) {
        bubble = el('div', { class: 'event bubble', dataset: { callId: e.callId, type: 'model_text' } }, el('span', { class: 'who' }, 'model'));
        deltaTargets.set(e.callId, bubble);
        stream.append(bubble);
      }
      bubble.append(el('span', { dataset: { eventId: id } }, e.text));
      break;
    }
    case 'turn':
      row('turn', el('span', { class: 'tag' }, `turn ${e.turn}`), e.agent ? el('span', { class: 'agent' }, `${e.agent} · `) : '', `${e.prompt_tokens.toLocaleString()} in · ${e.completion_tokens.toLocaleString()} out · ${money(e.costUsd)} · ${e.finish}`);
      break;
    case 'handoff':
      row('wait', el('span', { class: 'tag' }, '⇄ handoff'), `${e.from} → ${e.to} from turn ${e.turn + 1} `, call());
      break;
    case 'tool_start':
      row('tool', el('span', { class: 'tag' }, '▶ tool'), el('code', {}, e.toolName), ' ', el('code', { class: 'args-inline' }, e.args), ' ', call(), el('span', { class: 'progress', dataset: { progressFor: e.callKey } }, el('span', { class: 'label' })));
      break;
    case 'tool_progress': {
      const label = stream.querySelector(`[data-progress-for="${CSS.escape(e.callKey)}"]`);
      if (label) {
        // The tool's line shows the latest label; each progress event leaves a marker (its id) beside it.
        label.querySelector('.label').textContent = ` — ${e.label}`;
        label.append(el('i', { hidden: true, dataset: { eventId: id } }));
      } else row('progress', el('span', { class: 'tag' }, 'progress'), e.label, ' ', call());
      break;
    }
    case 'tool_result':
      row(e.ok ? 'ok' : 'bad', el('span', { class: 'tag' }, e.ok ? '✓ result' : '✗ error'), el('code', {}, e.toolName), ` ${e.ms} ms `, call(), e.error ? el('span', { class: 'error' }, ` ${e.error}`) : '');
      break;
    case 'tool_deduplicated':
      row('muted', el('span', { class: 'tag' }, '= same'), el('code', {}, e.toolName), ` answered from ${e.sameAs} `, call());
      break;
    case 'tool_denied':
      row('bad', el('span', { class: 'tag' }, '⛔ denied'), el('code', {}, e.toolName), ` ${e.why} `, call());
      break;
    case 'approval_required':
      row('wait', el('span', { class: 'tag' }, '‖ approval'), el('code', {}, e.toolName), ` (${e.risk} risk) `, el('code', { class: 'args-inline' }, e.args), ' ', call());
      break;
    case 'approval_decided':
      row(e.decision === 'approved' ? 'ok' : 'bad', el('span', { class: 'tag' }, e.decision === 'approved' ? '✓ approved' : '✗ rejected'), el('code', {}, e.toolName), e.by ? ` by ${e.by}` : '', e.reason ? `: “${e.reason}”` : '', ' ', call());
      break;
    case 'approval_refused':
      row('muted', el('span', { class: 'tag' }, 'refused'), e.error, ' ', call());
      break;
    case 'input_required':
      row('wait', el('span', { class: 'tag' }, '? question'), e.question, ' ', call());
      break;
    case 'input_received':
      row('ok', el('span', { class: 'tag' }, '✓ answered'), call());
      break;
    case 'claim_warning':
      row('bad', el('span', { class: 'tag' }, '⚠ claim'), e.message);
      break;
    case 'cancel_requested':
      row('wait', el('span', { class: 'tag' }, '■ cancelling'), `“${e.reason}”`);
      break;
    case 'stopping':
      row('wait', el('span', { class: 'tag' }, '■ stopping'), e.reason === 'max_time' ? 'wall time ran out' : `“${e.why}”`);
      break;
    case 'continued_as_new':
      row('muted', el('span', { class: 'tag' }, '↻ continued'), `after ${e.turns} turns (${e.historyEvents} history events)`);
      break;
    case 'run_stopped':
      row(e.status === 'completed' ? 'ok stopped' : 'bad stopped', el('span', { class: 'tag' }, '■ stopped'), statusBadge(e.status), ` ${e.reason ?? ''} · ${e.turns} turns · ${e.toolRuns} tool runs · ${money(e.costUsd)}`);
      break;
    default:
      row('muted', el('span', { class: 'tag' }, e.type ?? 'event'), el('code', { class: 'args-inline' }, JSON.stringify(e)));
  }
  stream.scrollTop = stream.scrollHeight;
}

function traceRow(id, e) {
  const { seq, at, type, callKey, toolName } = e;
  const detail = Object.entries(e)
    .filter(([k]) => !['runId', 'seq', 'at', 'type', 'callKey', 'toolName'].includes(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join('  ');
  // A line whose seq is shown already replaces it: Temporal refused the task that wrote the first (README, Traces).
  const shown = traceBody.querySelector(`tr[data-seq="${seq}"]`);
  const row = el(
    'tr',
    { dataset: { seq, eventId: id } },
    el('td', { class: 'num' }, seq),
    el('td', { title: at }, time(at)),
    el('td', {}, el('span', { class: `kind kind-${type}` }, type)),
    el('td', {}, callKey ? el('code', {}, callKey) : '', toolName ? ` ${toolName}` : ''),
    el('td', { class: 'detail' }, detail),
  );
  if (shown) shown.replaceWith(row);
  else traceBody.append(row);
}

// ── Cancel ───────────────────────────────────────────────────────────────────────────────────────────
$('cancel').addEventListener('submit', async (event) => {
  event.preventDefault();
  const reason = event.target.reason.value.trim();
  const button = event.target.querySelector('button');
  button.disabled = true;
  try {
    await api('POST', `/runs/${encodeURIComponent(runId)}/cancel`, reason ? { reason } : {});
    button.textContent = 'Cancelling…';
  } catch (error) {
    button.disabled = false;
    $('problem').hidden = false;
    $('problem').textContent = `Cancel refused: ${error.message}`;
  }
});

async function start() {
  me = await signIn(start);
  if (!me) return;
  await refreshState();
  await connect();
}

tickWaiting();
setInterval(() => {
  if (state && !TERMINAL.has(state.status)) $('meta').title = `running for ${ago(state.startedAt)}`;
}, 1000);
void start();
