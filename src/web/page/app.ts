// The a1 web page (issue 20): the tab strip, the inbox, and the viewed tab's surface in xterm.js,
// fed over one WebSocket by the a1 web process (src/web/protocol.ts). It types into a tab only
// while it controls it, and resizes the tab only when the person asks to fit it to this screen.
import type { InputEvent } from '../../input/events.js';
import { ProtocolError } from '../../protocol/errors.js';
import { WS_CLOSE, WS_PATH, readWebMessage, type PageToWeb, type WebControl, type WebTab, type WebToPage } from '../protocol.js';
import { QUICK_KEYS, QUICK_KEY_LABELS, composeEvents, keysToEvents, quickKeyEvents } from './keys.js';
import { backoffMs } from './layout.js';
import { ENDED_TEXT, controlOfViewed, el, pageState, state } from './model.js';
import { spins } from './tabs.js';
import { clearTerminal, fitFont, gridForScreen, onTerminalData, paint, screenText } from './terminal.js';
import { pulseReadonly, render, renderInbox, renderStrip, renderView, setViewHandler, showNotice } from './views.js';

const SPINNER_INTERVAL_MS = 100;

// --- The wire -----------------------------------------------------------------------------

let ws: WebSocket | null = null;
let attempt = 0;
let retryTimer: ReturnType<typeof setTimeout> | null = null;

function send(msg: PageToWeb): void {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function sendInput(events: InputEvent[], scripted = false): void {
  if (events.length === 0) return;
  if (controlOfViewed() !== 'you') {
    pulseReadonly();
    return;
  }
  send({ t: 'input', events, ...(scripted ? { scripted } : {}) });
}

function setConn(s: 'connecting' | 'open' | 'retrying' | 'ended'): void {
  el.conn.dataset.state = s;
  el.conn.title = { connecting: 'Connecting…', open: 'Connected', retrying: 'Reconnecting…', ended: 'Session ended' }[s];
}

function connect(): void {
  retryTimer = null;
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${WS_PATH}`;
  const socket = new WebSocket(url);
  ws = socket;
  setConn(attempt === 0 ? 'connecting' : 'retrying');
  socket.onopen = () => {
    attempt = 0;
    setConn('open');
  };
  socket.onmessage = (ev) => {
    if (typeof ev.data !== 'string') return;
    const msg = readWebMessage(ev.data);
    // Never the message itself: it may carry the terminal's text.
    if (msg instanceof ProtocolError) return console.warn(`a1 web: refused a message from the web process (${msg.code}): ${msg.message}`);
    receive(msg);
  };
  socket.onclose = (ev) => {
    if (ws !== socket) return;
    ws = null;
    // Control is the server's to say again on the next connection; until then the page is read-only.
    state.control.clear();
    render();
    if (ev.code === WS_CLOSE.sessionEnded) {
      endSession();
      return;
    }
    setConn('retrying');
    retryTimer = setTimeout(retry, backoffMs(attempt++));
  };
}

/** Before connecting again, asks whether this page's session still lives: a web process that was
 * stopped or killed kept its sessions only in memory, and its successor answers 401. */
async function retry(): Promise<void> {
  retryTimer = null;
  try {
    const res = await fetch(location.pathname, { method: 'HEAD', cache: 'no-store', credentials: 'same-origin' });
    if (res.status === 401) return endSession();
  } catch {
    // Nothing answers yet: try the socket anyway, and wait again after it fails.
  }
  connect();
}

function endSession(): void {
  state.ended = true;
  if (retryTimer) clearTimeout(retryTimer);
  setConn('ended');
  showNotice(ENDED_TEXT);
  state.control.clear();
  render();
}

function receive(msg: WebToPage): void {
  switch (msg.t) {
    case 'hello':
      // A new connection views nothing yet: ask again for the tab the person was on.
      if (state.wanted !== null) send({ t: 'view', tabId: state.wanted });
      return;
    case 'tabs':
      state.tabs = msg.tabs;
      render();
      return;
    case 'viewing':
      // The viewed tab is gone (closed): back to the inbox, and nothing to ask for on a reconnect.
      if (msg.tabId === null) {
        state.wanted = null;
        state.screen = 'inbox';
      }
      if (msg.tabId !== state.viewing) {
        state.viewing = msg.tabId;
        state.surfaceSize = null;
        clearTerminal();
      }
      render();
      return;
    case 'surface':
      if (msg.tabId === state.viewing) paint(msg.patch);
      return;
    case 'control':
      state.control.set(msg.tabId, msg.control);
      render();
      return;
    case 'notice':
      showNotice(msg.text);
      return;
  }
}

function view(tabId: string): void {
  state.wanted = tabId;
  state.screen = 'tab';
  if (tabId !== state.viewing) send({ t: 'view', tabId });
  render();
  fitFont();
}
setViewHandler(view);

// --- Controls -----------------------------------------------------------------------------

onTerminalData((data) => {
  if (controlOfViewed() !== 'you') {
    pulseReadonly();
    return;
  }
  sendInput(keysToEvents(data));
});

el.back.addEventListener('click', () => {
  state.screen = 'inbox';
  render();
});

el.control.addEventListener('click', () => {
  if (controlOfViewed() !== 'you' && state.viewing !== null) send({ t: 'claim' });
});

el.fit.addEventListener('click', () => {
  if (controlOfViewed() !== 'you') return;
  const grid = gridForScreen();
  if (grid) send({ t: 'resize', ...grid });
});

for (const key of QUICK_KEYS) {
  const b = document.createElement('button');
  b.type = 'button';
  b.dataset.key = key;
  b.textContent = QUICK_KEY_LABELS[key];
  b.title = key;
  // Keeps the compose line's focus (and the phone's keyboard) where it was.
  b.addEventListener('mousedown', (e) => e.preventDefault());
  b.addEventListener('click', () => sendInput(quickKeyEvents(key)));
  el.keys.appendChild(b);
}

el.composeRow.addEventListener('submit', (e) => {
  e.preventDefault();
  if (controlOfViewed() !== 'you') {
    pulseReadonly();
    return;
  }
  sendInput(composeEvents(el.compose.value), true);
  el.compose.value = '';
});

// The phone's on-screen keyboard shrinks the visual viewport: the keys and compose line stay above it.
function fitViewport(): void {
  const vv = window.visualViewport;
  document.documentElement.style.setProperty('--vvh', vv ? `${vv.height}px` : '100dvh');
  render();
  fitFont();
}
window.visualViewport?.addEventListener('resize', fitViewport);
window.addEventListener('resize', fitViewport);

setInterval(() => {
  if (!state.tabs.some((t) => spins(t.glyph))) return;
  state.spinnerFrame++;
  renderStrip();
  renderInbox();
  renderView();
}, SPINNER_INTERVAL_MS);

declare global {
  interface Window {
    a1web: { screenText(): string; state(): { viewing: string | null; control: WebControl; tabs: WebTab[] } };
  }
}

window.a1web = { screenText, state: pageState };

fitViewport();
connect();
