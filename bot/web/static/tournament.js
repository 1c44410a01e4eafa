// A club's tournament page: every table's game now (as its live page shows it) and the
// standings, read again every few seconds.
import { $, el, setText, pageKey, seatTile } from './common.js';

const key = pageKey();

function draw(data) {
  const labels = data.labels || {};
  document.documentElement.lang = data.lang || 'ru';
  $('#lines').replaceChildren(...(data.lines || []).map((line) => el('li', { text: line })));
  setText($('#standings-title'), labels.standings);
  setText($('#tables-title'), labels.tables);
  $('#standings').replaceChildren(...(data.standings || []).map((line) => el('li', { text: line })));
  $('#tables').replaceChildren(...(data.tables || []).map((table) => {
    const box = el('section', { class: 'table', 'data-table': table.table },
      el('h3', { text: `${table.table}` }));
    if (table.view) {
      box.append(el('p', { class: 'head', text: table.view.head }));
      if (table.view.turn) box.append(el('p', { class: 'turn', text: table.view.turn }));
      box.append(el('ol', { class: 'seats' }, ...table.view.seats.map((seat) => seatTile(seat, labels))));
    }
    return box;
  }));
}

async function load() {
  try {
    const response = await fetch('/api/tournament', { headers: { 'X-Page-Key': key }, cache: 'no-store' });
    if (response.status === 404) { document.body.dataset.stream = 'refused'; return; }
    draw(await response.json());
    document.body.dataset.stream = 'open';
  } catch (error) {
    document.body.dataset.stream = 'offline';
  }
  setTimeout(load, 5000);
}
load();
