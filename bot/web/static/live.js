// The live table page and the stream overlay: one stream of the table's public (or broadcast)
// views, drawn as the seats, the speaker and the countdown, the vote, the announcements, the
// result. Everything shown is the server's view; nothing is decided here.
import { $, el, setText, follow, Countdown, pageKey, seatTile } from './common.js';

const overlay = document.body.classList.contains('overlay');
const countdown = new Countdown($('#clock'));

function roleName(labels, role) {
  return (labels.role && labels.role[role]) || role;
}

function draw(view) {
  const labels = view.labels || {};
  document.documentElement.lang = view.lang || 'ru';
  document.body.dataset.kind = view.kind || 'public';
  document.body.dataset.game = view.game || '';
  setText($('#head'), view.head);
  setText($('#game'), view.game ? `${labels.game || ''} ${view.game}` : '');
  setText($('#turn'), view.turn || '');
  countdown.set(view.clock, labels.timer_paused);
  const seats = $('#seats');
  seats.replaceChildren(...(view.seats || []).map((seat) => {
    const tile = seatTile(seat, labels);
    const badge = tile.querySelector('.role');
    if (badge) badge.textContent = roleName(labels, seat.role);
    const points = view.points && view.points[String(seat.n)];
    if (points !== undefined) tile.append(el('div', { class: 'points', text: points }));
    return tile;
  }));
  const ballot = $('#ballot');
  if (view.ballot) {
    ballot.hidden = false;
    setText($('#ballot-title'), labels.ballot);
    const counts = view.ballot.counts || {};
    $('#ballot-list').replaceChildren(...view.ballot.candidates.map((seat) => el('li', {
      'data-nominee': seat, class: seat === view.ballot.current ? 'current' : null,
    }, el('span', { class: 'nominee', text: `№${seat}` }),
    el('span', { class: 'count', text: counts[String(seat)] !== undefined ? String(counts[String(seat)]) : '' }))));
  } else {
    ballot.hidden = true;
    $('#ballot-list').replaceChildren();
  }
  const bans = $('#bans');
  if (bans) bans.replaceChildren(...(view.bans || []).map((line) => el('li', { text: line })));
  const feed = $('#feed');
  if (feed) {
    setText($('#feed-title'), labels.feed);
    feed.replaceChildren(...(view.feed || []).slice().reverse().map((line) => el('li', { text: line })));
  }
  const result = $('#result');
  if (result) {
    result.hidden = !view.result;
    setText($('#result-text'), view.result || '');
  }
  const status = $('#status');
  if (status) setText(status, view.status || '');
  const banner = $('#banner');
  if (view.stopped) { banner.hidden = false; setText(banner, labels.stopped); } else if (!view.waiting) banner.hidden = true;
}

function waiting(view) {
  const banner = $('#banner');
  banner.hidden = false;
  setText(banner, (view.labels || {}).waiting || '');
}

function state(how) {
  document.body.dataset.stream = how;
  const banner = $('#banner');
  if (how === 'offline') { banner.hidden = false; setText(banner, '…'); }
  if (how === 'open' && banner.textContent === '…') banner.hidden = true;
}

const key = pageKey();
if (overlay) {
  const logo = $('#logo');
  logo.addEventListener('error', () => { logo.hidden = true; });
  logo.addEventListener('load', () => { logo.hidden = false; });
  logo.src = '/logo';
}
follow('/api/stream', { 'X-Page-Key': key }, (event, view) => {
  if (event === 'state') draw(view);
  else if (event === 'waiting') waiting(view);
}, state);
