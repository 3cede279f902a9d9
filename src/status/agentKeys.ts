// What the controller's keys mean to an agent (SPEC §16): Claude Code fires no hook on an
// interrupt or on a denied permission, so the tab learns those from the keys the holder admitted
// while a turn runs or a permission dialog waits. One table per agent kind, each measured with the
// version it names; the real-agent tests (test/e2e/agents) drive those versions and fail when an
// agent changes its dialog. Pure: a key and the dialog's state in, the next state and a verdict out.
// Only key names are read (never text): a multi-character text event is a burst of its characters.
import type { InputEvent } from '../input/events.js';

/** What answering a dialog option means for the turn. */
export type Verdict = 'approve' | 'deny';

export interface PermissionDialog {
  /** The options top to bottom; the first is highlighted when the dialog opens. */
  readonly options: readonly Verdict[];
  /** Keys that choose an option at once (by index). */
  readonly pick: Readonly<Record<string, number>>;
  /** Keys that deny at once, whatever is highlighted or typed. */
  readonly deny: readonly string[];
  readonly next: readonly string[];
  readonly previous: readonly string[];
  /** Moving past the last option: 'wrap' to the first, or 'grow' (the highlight stays on the last
   * and every extra step must be walked back: Claude Code 2.1.328). Up from the first always wraps. */
  readonly pastLast: 'wrap' | 'grow';
  /** Chooses the highlighted option. */
  readonly confirm: string;
  /** Opens a text field on the highlighted option: keys are text until confirm or deny. */
  readonly amend: string | null;
}

export interface AgentKeyRules {
  /** The agent version these rules were measured with. */
  readonly version: string;
  /** Keys that end a running turn (no hook reports it). */
  readonly interrupt: readonly string[];
  readonly dialog: PermissionDialog;
}

/** The dialog's position as far as the keys tell it: the highlight may be past the last option
 * only under `pastLast: 'grow'`. */
export interface DialogState {
  readonly selected: number;
  readonly amending: boolean;
}

export const DIALOG_OPENED: DialogState = Object.freeze({ selected: 0, amending: false });

/**
 * Claude Code 2.1.328: Esc or Ctrl+C ends a turn. Its permission dialog: 1 Yes, 2 Yes and don't ask
 * again, 3 Yes and switch to auto mode, 4 No; Esc denies; Ctrl+C does nothing there; Up from 1 goes
 * to 4, Down past 4 stays on 4 but counts; Enter chooses; Tab amends the highlighted option.
 */
const CLAUDE: AgentKeyRules = {
  version: '2.1.328',
  interrupt: ['escape', 'ctrl+c'],
  dialog: {
    options: ['approve', 'approve', 'approve', 'deny'],
    pick: { '1': 0, '2': 1, '3': 2, '4': 3 },
    deny: ['escape'],
    next: ['down'],
    previous: ['up'],
    pastLast: 'grow',
    confirm: 'enter',
    amend: 'tab',
  },
};

/**
 * Codex 0.169.0: Esc or Ctrl+C ends a turn. Its approval: 1 or y Yes, 2 or p Yes and don't ask
 * again, 3, n, Esc or Ctrl+C No; Up/k and Down/j move and wrap; Enter chooses.
 */
const CODEX: AgentKeyRules = {
  version: '0.169.0',
  interrupt: ['escape', 'ctrl+c'],
  dialog: {
    options: ['approve', 'approve', 'deny'],
    pick: { '1': 0, y: 0, '2': 1, p: 1, '3': 2, n: 2 },
    deny: ['escape', 'ctrl+c'],
    next: ['down', 'j'],
    previous: ['up', 'k'],
    pastLast: 'wrap',
    confirm: 'enter',
    amend: null,
  },
};

/** Any other agent (and a1's own test agent): y/1/2 or Enter approve, n/3, Esc or Ctrl+C deny. */
const GENERIC: AgentKeyRules = {
  version: '*',
  interrupt: ['escape', 'ctrl+c'],
  dialog: {
    options: ['approve', 'deny'],
    pick: { y: 0, Y: 0, '1': 0, '2': 0, n: 1, N: 1, '3': 1 },
    deny: ['escape', 'ctrl+c'],
    next: [],
    previous: [],
    pastLast: 'wrap',
    confirm: 'enter',
    amend: null,
  },
};

const BY_KIND: Readonly<Record<string, AgentKeyRules>> = { claude: CLAUDE, codex: CODEX };

export function keyRulesFor(kind: string | null | undefined): AgentKeyRules {
  return (kind && Object.hasOwn(BY_KIND, kind) ? BY_KIND[kind] : null) ?? GENERIC;
}

const NAMED_KEYS: ReadonlySet<string> = new Set(['enter', 'tab', 'escape', 'up', 'down', 'left', 'right', 'backspace']);

/**
 * The key names one input event stands for, in order: a character per printable character,
 * `ctrl+<letter>`, and the named keys above; anything else (pastes, mouse, other keys, keys with
 * other modifiers) is `other`, which moves no dialog and interrupts nothing.
 */
export function keyNamesOf(ev: InputEvent): string[] {
  if (ev.k === 'key') {
    const m = ev.mods;
    const plain = !m?.alt && !m?.ctrl && !m?.meta && !m?.shift;
    return [plain && NAMED_KEYS.has(ev.key) ? ev.key : 'other'];
  }
  if (ev.k === 'text') {
    const m = ev.mods;
    if (m?.alt || m?.meta) return ['other'];
    if (m?.ctrl) return ev.s.length === 1 ? [`ctrl+${ev.s.toLowerCase()}`] : ['other'];
    return Array.from(ev.s, (ch) => (ch === '\r' ? 'enter' : ch === '\x1b' ? 'escape' : ch === '\x03' ? 'ctrl+c' : ch));
  }
  if (ev.k === 'raw') {
    // Bytes the client could not name; the common single ones still mean their key.
    if (ev.bytes === '\x1b') return ['escape'];
    if (ev.bytes === '\x03') return ['ctrl+c'];
    if (ev.bytes === '\r') return ['enter'];
  }
  return ['other'];
}

/** One key in an open dialog: its next state, and the verdict when the key answered it. */
export function answerKey(d: PermissionDialog, s: DialogState, key: string): { state: DialogState; verdict: Verdict | null } {
  const last = d.options.length - 1;
  const chosen = (i: number) => d.options[Math.min(i, last)];
  if (d.deny.includes(key)) return { state: s, verdict: 'deny' };
  if (key === d.confirm) return { state: s, verdict: chosen(s.selected) };
  if (s.amending) return { state: s, verdict: null };
  if (Object.hasOwn(d.pick, key)) return { state: s, verdict: chosen(d.pick[key]) };
  if (key === d.amend) return { state: { ...s, amending: true }, verdict: null };
  if (d.next.includes(key)) {
    const selected = s.selected >= last && d.pastLast === 'wrap' ? 0 : s.selected + 1;
    return { state: { ...s, selected }, verdict: null };
  }
  if (d.previous.includes(key)) return { state: { ...s, selected: s.selected === 0 ? last : s.selected - 1 }, verdict: null };
  return { state: s, verdict: null };
}
