// The judge's panel on a screen (Telegram's Mini App; a Discord judge's one-time link). Signs in
// once — Telegram's initData, or the link's ticket — and keeps the session in memory; every tap
// is the panel's own press data or a typed command, sent to the bot, whose front door, judge
// controller and engine decide. The page only draws the state the bot gives back.
import { $, el, setText, follow, Countdown, applyTheme } from './common.js';

const telegram = window.Telegram && window.Telegram.WebApp;
const countdown = new Countdown($('#clock'));
let session = null;
let labels = {};
let shown = null; // the game and revision drawn

function fromHash() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const out = {};
  if (params.get('tgWebAppData')) out.tg = params.get('tgWebAppData');
  if (params.get('dc')) out.dc = params.get('dc');
  const theme = params.get('tgWebAppThemeParams');
  if (theme) { try { out.theme = JSON.parse(theme); } catch (error) { /* no theme */ } }
  return out;
}

function ready() {
  if (telegram && telegram.ready) { telegram.ready(); if (telegram.expand) telegram.expand(); return; }
  const proxy = window.TelegramWebviewProxy;
  if (proxy && proxy.postEvent) proxy.postEvent('web_app_ready', '');
  else if (window.parent !== window) window.parent.postMessage(JSON.stringify({ eventType: 'web_app_ready', eventData: '' }), '*');
}

function toast(text, alert) {
  const node = $('#toast');
  if (!text) { node.hidden = true; return; }
  node.hidden = false;
  node.dataset.alert = alert ? 'yes' : 'no';
  setText(node, text);
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { node.hidden = true; }, alert ? 6000 : 2500);
}

let busy = 0; // requests on their way (the tests wait for none)
function pending(change) {
  busy += change;
  document.body.dataset.busy = String(busy);
}

async function call(method, path, body) {
  pending(1);
  try { return await send(method, path, body); } finally { pending(-1); }
}

async function send(method, path, body) {
  const response = await fetch(path, {
    method, cache: 'no-store',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${session}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401) { signedOut(); throw new Error('signed out'); }
  if (!response.ok) throw new Error(String(response.status));
  return response.json();
}

function signedOut() {
  document.body.dataset.signed = 'no';
  if (labels.signed_out) { setText($('#head'), labels.signed_out); return; }
  fetch('/api/app/words', { cache: 'no-store' }).then((r) => r.json()).then((words) => {
    const lang = (navigator.language || '').toLowerCase().startsWith('en') ? 'en' : 'ru';
    setText($('#head'), words[lang] || words.ru || '');
  }).catch(() => {});
}

async function press(data) {
  pending(1);
  try {
    const answer = await send('POST', '/api/app/press', { data });
    toast(answer.answer, answer.alert);
    draw(answer.state);
  } finally { pending(-1); }
}

async function typed(line) {
  pending(1);
  try {
    const answer = await send('POST', '/api/app/command', { line });
    const replies = answer.replies || [];
    toast(replies.map((r) => r.text).join('\n'), replies.some((r) => r.refused));
    draw(answer.state);
  } finally { pending(-1); }
}

function button(label, data, kind) {
  const node = el('button', { type: 'button', class: kind || 'btn', 'data-press': data, text: label });
  node.addEventListener('click', () => { press(data).catch(() => {}); });
  return node;
}

function draw(state) {
  if (!state) return;
  labels = state.labels || labels;
  document.documentElement.lang = state.lang || 'ru';
  document.body.dataset.game = state.game || '';
  document.body.dataset.revision = state.revision === undefined ? '' : state.revision;
  shown = [state.game, state.revision];
  setText($('#head'), state.head);
  setText($('#turn'), state.turn || '');
  countdown.set(state.clock, labels.timer_paused);
  const actions = state.actions || {};
  $('#seats').replaceChildren(...(state.seats || []).map((seat) => {
    const tile = el('li', {
      class: 'seat', 'data-seat': seat.n, 'data-out': seat.out ? 'yes' : 'no',
      'data-speaking': seat.speaking ? 'yes' : 'no', 'data-fouls': seat.fouls,
      'data-nominated': seat.nominated ? 'yes' : 'no',
    });
    tile.append(el('div', { class: 'seat-head' }, el('span', { class: 'seat-n', text: String(seat.n) }),
      el('span', { class: 'seat-name', text: seat.name || '' })));
    const marks = el('div', { class: 'seat-marks' });
    const dots = el('span', { class: 'fouls' });
    for (let i = 0; i < 4; i += 1) dots.append(el('i', { class: i < seat.fouls ? 'dot on' : 'dot' }));
    marks.append(dots);
    if (seat.role) marks.append(el('span', { class: `badge role role-${seat.role}`, 'data-role': seat.role,
      text: (labels.role_short && labels.role_short[seat.role]) || seat.role }));
    if (seat.nominated) marks.append(el('span', { class: 'badge nominated', title: labels.nominated, 'aria-label': labels.nominated, text: '⚑' }));
    tile.append(marks);
    const acts = actions[String(seat.n)] || {};
    const row = el('div', { class: 'seat-acts' });
    if (acts.nominate) row.append(button('↑', acts.nominate, 'mini nominate'));
    if (acts.foul) row.append(button(labels.foul || 'Foul', acts.foul, 'mini foul'));
    tile.append(row);
    return tile;
  }));
  const panel = state.panel || { text: '', rows: [] };
  setText($('#panel-text'), panel.text);
  $('#buttons').replaceChildren(...panel.rows.map((row) => el('div', { class: 'row' },
    ...row.map((b) => button(b.label, b.data)))));
  $('#line').placeholder = labels.command || '';
  setText($('#send'), labels.send || '→');
}

async function start() {
  const hash = fromHash();
  applyTheme((telegram && telegram.themeParams) || hash.theme);
  ready();
  const proof = telegram && telegram.initData ? { tg: telegram.initData } : hash.tg ? { tg: hash.tg } : hash.dc ? { dc: hash.dc } : null;
  if (hash.dc) history.replaceState(null, '', location.pathname); // the one-time link's ticket goes
  if (!proof) { signedOut(); return; }
  const response = await fetch('/api/app/session', {
    method: 'POST', cache: 'no-store', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(proof),
  });
  if (!response.ok) { signedOut(); return; }
  const signed = await response.json();
  session = signed.session;
  document.body.dataset.signed = 'yes';
  draw(signed.state);
  follow('/api/app/stream', { Authorization: `Bearer ${session}` }, (event, ping) => {
    if (event !== 'changed') return;
    if (shown && ping.game === shown[0] && ping.revision === shown[1]) return;
    call('GET', '/api/app/state').then(draw).catch(() => {});
    document.body.dataset.seen = String(ping.seq);
  }, (how) => { document.body.dataset.stream = how; });
}

$('#command').addEventListener('submit', (event) => {
  event.preventDefault();
  const line = $('#line').value.trim();
  if (!line) return;
  $('#line').value = '';
  typed(line).catch(() => {});
});
start().catch(() => signedOut());
