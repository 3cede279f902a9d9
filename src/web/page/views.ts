// The strip, the inbox and the tab view's controls, drawn from the page's state.
import { ENDED_TEXT, controlOfViewed, el, isPhone, state } from './model.js';
import { attentionName, chipText, glyphChar, inboxOrder, stateLabel } from './tabs.js';

let onView: (tabId: string) => void = () => {};

/** What clicking a chip or an inbox row does. */
export function setViewHandler(handler: (tabId: string) => void): void {
  onView = handler;
}

export function showNotice(text: string): void {
  el.notice.textContent = text;
}

let pulseTimer: ReturnType<typeof setTimeout> | null = null;
export function pulseReadonly(): void {
  if (state.viewing === null) return;
  el.readonly.hidden = false;
  el.readonly.classList.remove('pulse');
  void el.readonly.offsetWidth;
  el.readonly.classList.add('pulse');
  if (pulseTimer) clearTimeout(pulseTimer);
  pulseTimer = setTimeout(() => el.readonly.classList.remove('pulse'), 700);
}

/** Replaces `parent`'s children with `items`, reusing the elements keyed by tab id. */
function syncChildren(parent: HTMLElement, ids: string[], make: (id: string) => HTMLElement, update: (node: HTMLElement, id: string) => void): void {
  const existing = new Map<string, HTMLElement>();
  for (const child of Array.from(parent.children) as HTMLElement[]) existing.set(child.dataset.tabId ?? '', child);
  ids.forEach((id, i) => {
    const node = existing.get(id) ?? make(id);
    existing.delete(id);
    update(node, id);
    if (parent.children[i] !== node) parent.insertBefore(node, parent.children[i] ?? null);
  });
  for (const stale of existing.values()) stale.remove();
}

export function renderStrip(): void {
  const byId = new Map(state.tabs.map((t) => [t.id, t]));
  syncChildren(
    el.strip,
    state.tabs.map((t) => t.id),
    (id) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'chip';
      b.dataset.tabId = id;
      b.addEventListener('click', () => onView(id));
      return b;
    },
    (node, id) => {
      const tab = byId.get(id)!;
      node.dataset.glyph = tab.glyph;
      node.title = tab.title || tab.name;
      const text = chipText(tab, state.spinnerFrame);
      if (node.textContent !== text) node.textContent = text;
      node.classList.toggle('viewed', id === state.viewing);
    },
  );
}

export function renderInbox(): void {
  const ordered = inboxOrder(state.tabs);
  const byId = new Map(state.tabs.map((t) => [t.id, t]));
  syncChildren(
    el.inbox,
    ordered.map((t) => t.id),
    (id) => {
      const li = document.createElement('li');
      li.className = 'inbox-item';
      li.dataset.tabId = id;
      li.tabIndex = 0;
      li.setAttribute('role', 'button');
      for (const cls of ['glyph', 'name', 'state', 'detail']) {
        const span = document.createElement('span');
        span.className = cls;
        li.appendChild(span);
      }
      li.addEventListener('click', () => onView(id));
      li.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onView(id);
        }
      });
      return li;
    },
    (node, id) => {
      const tab = byId.get(id)!;
      node.dataset.attention = attentionName(tab.attention);
      node.classList.toggle('viewed', id === state.viewing);
      const [glyph, name, st, detail] = Array.from(node.children) as HTMLElement[];
      glyph.textContent = glyphChar(tab.glyph, state.spinnerFrame);
      name.textContent = tab.name;
      st.textContent = stateLabel(tab);
      detail.textContent = [tab.kind, tab.title].filter((s) => s && s !== tab.name).join(' · ');
    },
  );
  if (state.tabs.length === 0 && el.inbox.children.length === 0) {
    const li = document.createElement('li');
    li.className = 'inbox-empty';
    li.textContent = state.ended ? ENDED_TEXT : 'No tabs yet.';
    el.inbox.appendChild(li);
  }
}

export function renderView(): void {
  const control = controlOfViewed();
  const tab = state.tabs.find((t) => t.id === state.viewing);
  el.tabName.textContent = tab ? chipText(tab, state.spinnerFrame) : '';
  el.control.dataset.control = control;
  el.control.textContent = control === 'you' ? 'You control this tab' : 'Take control';
  el.control.disabled = state.viewing === null || state.ended;
  el.fit.disabled = control !== 'you' || state.ended;
  el.readonly.hidden = state.viewing === null || control === 'you';
  el.empty.hidden = state.viewing !== null;
  el.term.hidden = state.viewing === null;
  document.body.classList.toggle('you', control === 'you');
  const waiting = state.tabs.filter((t) => t.attention === 'needs-input').length;
  document.title = waiting > 0 ? `(${waiting}) a1` : 'a1';
}


export function render(): void {
  // A stale "No tabs yet." row goes before the keyed sync.
  for (const n of Array.from(el.inbox.querySelectorAll('.inbox-empty'))) n.remove();
  renderStrip();
  renderInbox();
  renderView();
  document.body.classList.toggle('phone', isPhone());
  document.body.dataset.screen = state.screen;
}
