// The pages' shared parts: a Server-Sent Events reader over fetch (a page's secret rides in a
// request header, never in an address), DOM helpers that only ever set text (a player's name is
// never markup), the countdown, Telegram's theme. No rule lives here: the pages show what the
// server's views say.

export const $ = (selector, root = document) => root.querySelector(selector);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('data-')) node.setAttribute(key, value === true ? '' : String(value));
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function setText(node, text) {
  if (node && node.textContent !== (text || '')) node.textContent = text || '';
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// Read a Server-Sent Events stream; reconnect after a drop, stop for good on "closed" or when
// the server refuses the page (404: a wrong or rotated secret; 401, 403: not signed in).
export async function follow(url, headers, onEvent, onState = () => {}) {
  for (;;) {
    let closed = false;
    try {
      const response = await fetch(url, { headers, cache: 'no-store' });
      if ([401, 403, 404].includes(response.status)) { onState('refused'); return; }
      if (!response.ok || !response.body) throw new Error(String(response.status));
      onState('open');
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (event === 'closed') { closed = true; continue; }
          if (data.length) onEvent(event, JSON.parse(data.join('\n')));
        }
      }
    } catch (error) {
      // a dropped connection: said, then tried again
    }
    if (closed) { onState('closed'); return; }
    onState('offline');
    await sleep(3000);
  }
}

// A step's countdown, counted down here between the server's updates (its seconds left when
// read, and real seconds per timer second).
export class Countdown {
  constructor(node) { this.node = node; this.clock = null; this.at = 0; this.paused = ''; }

  set(clock, pausedWord) {
    this.clock = clock;
    this.at = performance.now();
    this.paused = pausedWord || '';
    this.draw();
    if (!this.timer) this.timer = setInterval(() => this.draw(), 250);
  }

  draw() {
    const clock = this.clock;
    if (!clock) { setText(this.node, ''); this.node.hidden = true; return; }
    this.node.hidden = false;
    let left = clock.left;
    if (clock.running) left = Math.max(0, left - (performance.now() - this.at) / 1000 / clock.scale);
    const seconds = Math.ceil(left);
    const shown = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
    setText(this.node, clock.running ? shown : `${shown} · ${this.paused}`);
    this.node.dataset.running = clock.running ? 'yes' : 'no';
  }
}

// Telegram's theme colours as CSS variables (its Mini App script's themeParams, or the
// address's tgWebAppThemeParams when that script is absent: nothing is loaded from elsewhere).
export function applyTheme(theme) {
  if (!theme) return;
  const names = { bg_color: '--bg', text_color: '--text', hint_color: '--hint', link_color: '--link',
    button_color: '--button', button_text_color: '--button-text', secondary_bg_color: '--bg2' };
  for (const [key, variable] of Object.entries(names)) {
    if (/^#[0-9a-fA-F]{3,8}$/.test(theme[key] || '')) document.documentElement.style.setProperty(variable, theme[key]);
  }
}

// The page's key: the address's fragment (``#<id>.<secret>``), never sent by the browser.
export function pageKey() {
  return decodeURIComponent(location.hash.replace(/^#/, ''));
}

export function seatTile(seat, labels, { roles = false, nominated = false } = {}) {
  const tile = el('li', {
    class: 'seat', 'data-seat': seat.n, 'data-out': seat.out ? 'yes' : 'no',
    'data-speaking': seat.speaking ? 'yes' : 'no', 'data-fouls': seat.fouls,
  });
  const head = el('div', { class: 'seat-head' }, el('span', { class: 'seat-n', text: String(seat.n) }),
    el('span', { class: 'seat-name', text: seat.name || '' }));
  tile.append(head);
  const marks = el('div', { class: 'seat-marks' });
  const dots = el('span', { class: 'fouls', 'aria-label': `${seat.fouls} ${labels.fouls || ''}` });
  for (let i = 0; i < 4; i += 1) dots.append(el('i', { class: i < seat.fouls ? 'dot on' : 'dot' }));
  marks.append(dots);
  if (seat.speaking) marks.append(el('span', { class: 'badge speaking', text: labels.speaking }));
  if (nominated && seat.nominated) marks.append(el('span', { class: 'badge nominated', text: labels.nominated }));
  if (seat.role) marks.append(el('span', { class: `badge role role-${seat.role}`, 'data-role': seat.role, text: seat.role }));
  tile.append(marks);
  if (seat.facts) tile.append(el('div', { class: 'seat-facts', text: seat.facts }));
  return tile;
}
