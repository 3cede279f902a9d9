// The prompt a crash may cost (SPEC §10: "a restart never resends a prompt; a prompt that had no
// settled reply is offered back, not sent"). Pure: follows the controller's admitted input into an
// agent tab and the agent's reports over the bridge, and knows the line being typed, the last
// prompt submitted, and whether a reply settled it. The text lives in the holder's memory only:
// never persisted, logged or sent to the server (SPEC §5, §13). That is why this is a holder module
// and not a status one (src/status reads key names, never text).
//
// Rules, one per line:
// - The line is followed only through edits whose effect every agent of the kind agrees on, with the
//   caret at the end: printable text and pastes appended, Backspace, and the kind's kill and clear
//   keys. Any other key (caret movement, history, completion, Tab, Esc, Alt+ or Ctrl+ keys, a click)
//   makes the line unknown until the agent empties it: nothing is offered rather than wrong text.
// - Backspace after a paste makes the line unknown (Claude Code collapses a paste and deletes it
//   whole), and so does Backspace over a grapheme of several code points (agents differ there).
// - Enter at the prompt submits the line; the agent empties its input. A line the kind treats
//   specially (a slash menu, an @ mention, a mode prefix, a trailing `\` that Claude Code turns into a
//   newline) is a submission of unknown text. Enter on an empty line submits nothing.
// - Enter while a turn runs queues a second prompt beside the first (Claude Code, Codex) or types
//   ahead (a line agent): which one was lost is unknown, so nothing is offered.
// - Keys while a permission dialog waits answer the dialog and leave the line alone.
// - A submission is settled by the agent's `done` or `error` report after it, by `idle` once the
//   turn was reported running (working or needs-input) since, or by the controller's keys ending
//   the turn (an interrupt or a denial, as the status model reads them). An idle with no turn seen
//   is a late start report (Codex fires SessionStart with the first prompt), not the turn's end.
// - An incarnation that never reported over the bridge never settles anything it was sent, so its
//   prompts are never offered: without reports a1 cannot tell an answered prompt from a lost one.
// - After a death the next incarnation carries what had no settled reply. Once the holder typed it
//   into the new input, it stays pending while the line is exactly it (a second crash offers it
//   again); any submission or edit away from it means the user decided.
import type { InputEvent } from '../input/events.js';
import type { AgentPhase } from '../status/model.js';
import type { AgentState } from '../status/agentState.js';
import { graphemeSegmenter } from '../graphemes.js';

/** A line longer than this is not followed: the default input bound (SPEC §12), and more than any
 * prompt a person types or pastes at once; the holder keeps at most two such lines. */
export const MAX_PROMPT_CHARS = 1024 * 1024;

/** What an agent kind's input editor does with the few keys followed beyond plain typing. */
export interface PromptRules {
  /** The agent version these rules were read from (`*`: any agent, so only what all agree on). */
  readonly version: string;
  /** Keys that delete from the caret to the start of its line: with the caret at the end of a
   * one-line input, they empty it. */
  readonly killToStart: readonly KillKey[];
  /** Ctrl+C at the prompt (no turn running) empties the input. */
  readonly interruptClears: boolean;
  /** A line starting with one of these opens a menu or a mode whose Enter may send something else. */
  readonly specialStarts: readonly string[];
  /** A line holding one of these opened a completion menu that Enter may have accepted. */
  readonly specialChars: readonly string[];
  /** Enter right after this character inserts a newline instead of submitting. */
  readonly newlineAfter: string | null;
  /** The agent reports idle once its prompt is ready after a start; otherwise its prompt is taken
   * to be ready once it has bracketed paste on and has drawn nothing for a moment. */
  readonly idleOnStart: boolean;
  /** The agent reports a new session at its start but saves it only with its first prompt: until
   * then there is nothing to resume, and resuming it fails (Claude Code: "No conversation found
   * with session ID", exit 1). */
  readonly savesSessionAtFirstPrompt: boolean;
}

type KillKey = 'ctrl+u';

/**
 * Claude Code 2.1.328: Ctrl+U deletes to the start of the line and Ctrl+C at the prompt clears the
 * input; `/` opens the command menu, `!` bash mode, `#` memory mode, `?` the shortcuts (not typed),
 * `@` the file menu; `\` then Enter is a newline. Its SessionStart hook reports idle at every start.
 */
const CLAUDE: PromptRules = {
  version: '2.1.328',
  killToStart: ['ctrl+u'],
  interruptClears: true,
  specialStarts: ['/', '!', '#', '?'],
  specialChars: ['@'],
  newlineAfter: '\\',
  idleOnStart: true,
  savesSessionAtFirstPrompt: true,
};

/** Codex 0.169.0: Ctrl+U deletes to the start of the line, Ctrl+C clears the composer; `/` opens
 * the command popup, `!` runs a shell command, `?` the shortcuts, `@` the file search. Its hooks
 * first fire with the first prompt: nothing reports a resumed Codex ready. */
const CODEX: PromptRules = {
  version: '0.169.0',
  killToStart: ['ctrl+u'],
  interruptClears: true,
  specialStarts: ['/', '!', '?'],
  specialChars: ['@'],
  newlineAfter: null,
  idleOnStart: false,
  // Its hooks first fire with the first prompt: it reports no session before it saved one.
  savesSessionAtFirstPrompt: false,
};

/** Any other agent (a1's own test agent too): typing, pasting, Backspace and Enter only. It is
 * ready when it reports idle: nothing else tells what an unknown agent is doing at its start. */
const GENERIC: PromptRules = {
  version: '*',
  killToStart: [],
  interruptClears: false,
  specialStarts: [],
  specialChars: [],
  newlineAfter: null,
  idleOnStart: true,
  savesSessionAtFirstPrompt: false,
};

const BY_KIND: Readonly<Record<string, PromptRules>> = { claude: CLAUDE, codex: CODEX };

export function promptRulesFor(kind: string | null | undefined): PromptRules {
  return (kind && Object.hasOwn(BY_KIND, kind) ? BY_KIND[kind] : null) ?? GENERIC;
}

/** One submission: its text (null when it could not be followed), whether the agent reported its
 * turn running, and whether a reply settled it. */
export interface Submission {
  readonly text: string | null;
  readonly running: boolean;
  readonly settled: boolean;
}

/** A prompt the previous incarnation lost; `typed` once the holder put it into the new input. */
export interface Carried {
  readonly text: string;
  readonly typed: boolean;
}

export interface PromptState {
  /** The input line as typed since the agent last emptied it; null once an edit was not followed. */
  readonly line: string | null;
  /** The line holds pasted text. */
  readonly pasted: boolean;
  /** The last submission of this incarnation. */
  readonly submitted: Submission | null;
  /** This incarnation has reported over the bridge. */
  readonly reported: boolean;
  readonly carried: Carried | null;
}

export const NO_PROMPT: PromptState = Object.freeze({ line: '', pasted: false, submitted: null, reported: false, carried: null });

export type PromptEvent =
  /** One admitted input event; the agent's phase (null: it has not reported) before and after the
   * status model read its keys; whether the child had bracketed paste on. */
  | { k: 'input'; ev: InputEvent; before: AgentPhase | null; after: AgentPhase | null; bracketedPaste: boolean }
  | { k: 'report'; state: AgentState }
  /** The holder typed the carried prompt into the input (a bracketed paste, no Enter). */
  | { k: 'offered' }
  /** The holder gave up offering the carried prompt. */
  | { k: 'offerDropped' };

/** What one input event does to an input line. */
type Edit =
  | { k: 'char'; s: string }
  | { k: 'paste'; s: string }
  | { k: 'enter' }
  | { k: 'backspace' }
  | { k: 'kill'; key: KillKey }
  | { k: 'interrupt' }
  /** Changes the line in a way not followed. */
  | { k: 'lost' }
  /** May have submitted something (a raw byte, Ctrl+J, a modified Enter): unknown line and prompt. */
  | { k: 'maybeSubmit' }
  /** Reaches no input line (focus, mouse motion and wheel). */
  | { k: 'none' };

const CTRL_C = '\x03';
const CTRL_U = '\x15';
const ESC = '\x1b';

function charEdit(ch: string): Edit {
  if (ch === '\r') return { k: 'enter' };
  if (ch === '\x7f') return { k: 'backspace' };
  if (ch === CTRL_C) return { k: 'interrupt' };
  if (ch === CTRL_U) return { k: 'kill', key: 'ctrl+u' };
  if (ch === '\n') return { k: 'maybeSubmit' };
  const code = ch.codePointAt(0)!;
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return { k: 'lost' };
  return { k: 'char', s: ch };
}

function textEdits(s: string): Edit[] {
  return Array.from(s, charEdit);
}

/** The edits an admitted input event stands for, given whether the child takes bracketed pastes. */
export function editsOf(ev: InputEvent, bracketedPaste: boolean): Edit[] {
  switch (ev.k) {
    case 'text': {
      const m = ev.mods;
      if (m?.alt || m?.meta) return [{ k: 'lost' }];
      if (m?.ctrl) {
        if (ev.s.length !== 1) return [{ k: 'lost' }];
        const letter = ev.s.toLowerCase();
        if (letter === 'c') return [{ k: 'interrupt' }];
        if (letter === 'u') return [{ k: 'kill', key: 'ctrl+u' }];
        // Ctrl+M is Enter and Ctrl+J a newline some agents submit on.
        return letter === 'm' || letter === 'j' ? [{ k: 'maybeSubmit' }] : [{ k: 'lost' }];
      }
      return textEdits(ev.s);
    }
    case 'key': {
      const m = ev.mods;
      const plain = !m?.alt && !m?.ctrl && !m?.meta && !m?.shift;
      // A modified Enter is a newline in Claude Code and Codex, and may submit elsewhere.
      if (ev.key === 'enter') return [plain ? { k: 'enter' } : { k: 'maybeSubmit' }];
      if (!plain) return [{ k: 'lost' }];
      if (ev.key === 'backspace') return [{ k: 'backspace' }];
      if (ev.key === 'space') return [{ k: 'char', s: ' ' }];
      return [{ k: 'lost' }];
    }
    case 'paste':
      // Without bracketed paste the child reads it as typed: a newline in it submits.
      return bracketedPaste ? [{ k: 'paste', s: ev.s }] : textEdits(ev.s);
    case 'mouse':
      // A click may move the caret; motion and the wheel do not reach the input line.
      return [ev.action === 'press' && ev.button !== 'wheelUp' && ev.button !== 'wheelDown' ? { k: 'lost' } : { k: 'none' }];
    case 'focus':
      return [{ k: 'none' }];
    case 'raw':
      if (ev.bytes === ESC) return [{ k: 'lost' }];
      if (ev.bytes === CTRL_C) return [{ k: 'interrupt' }];
      if (ev.bytes === '\r') return [{ k: 'enter' }];
      return [{ k: 'maybeSubmit' }];
  }
}

/** Whether the event reaches the child's input at all (focus reports and mouse motion do not). */
export function touchesInput(ev: InputEvent): boolean {
  return editsOf(ev, true).some((e) => e.k !== 'none');
}

const PROMPT_PHASES: ReadonlySet<AgentPhase | null> = new Set([null, 'idle', 'done', 'error']);
const TURN_PHASES: ReadonlySet<AgentPhase | null> = new Set(['working', 'needs-input']);

function withLine(s: PromptState, line: string | null, pasted = s.pasted): PromptState {
  if (line !== null && line.length > MAX_PROMPT_CHARS) return { ...s, line: null, pasted: false };
  return { ...s, line, pasted: line === null || line === '' ? false : pasted };
}

function backspace(s: PromptState): PromptState {
  if (s.line === null || s.line === '') return s;
  if (s.pasted) return withLine(s, null);
  let last = '';
  for (const { segment } of graphemeSegmenter().segment(s.line)) last = segment;
  // One code point: every agent deletes it the same way.
  if ([...last].length !== 1) return withLine(s, null);
  return withLine(s, s.line.slice(0, s.line.length - last.length));
}

function isSpecial(rules: PromptRules, line: string): boolean {
  return rules.specialStarts.some((p) => line.startsWith(p)) || rules.specialChars.some((c) => line.includes(c));
}

function submit(rules: PromptRules, s: PromptState, turnRunning: boolean): PromptState {
  if (s.line === '') return s;
  if (!turnRunning && s.line !== null && rules.newlineAfter !== null && s.line.endsWith(rules.newlineAfter)) return withLine(s, null);
  const known = !turnRunning && s.line !== null && !isSpecial(rules, s.line);
  return { ...s, line: '', pasted: false, submitted: { text: known ? s.line : null, running: false, settled: false }, carried: null };
}

function applyEdit(rules: PromptRules, s: PromptState, e: Edit, turnRunning: boolean): PromptState {
  switch (e.k) {
    case 'none':
      return s;
    case 'char':
      return s.line === null ? s : withLine(s, s.line + e.s);
    case 'paste':
      return s.line === null ? s : withLine(s, s.line + e.s, true);
    case 'backspace':
      return backspace(s);
    case 'kill':
      // The caret is at the end: of a one-line input the kill empties it all.
      return withLine(s, rules.killToStart.includes(e.key) && s.line !== null && !s.line.includes('\n') && !s.pasted ? '' : null);
    case 'interrupt':
      return withLine(s, !turnRunning && rules.interruptClears ? '' : null);
    case 'lost':
      return withLine(s, null);
    case 'maybeSubmit':
      return { ...s, line: null, pasted: false, submitted: { text: null, running: false, settled: false }, carried: null };
    case 'enter':
      return submit(rules, s, turnRunning);
  }
}

function settle(s: PromptState): PromptState {
  return s.submitted && !s.submitted.settled ? { ...s, submitted: { ...s.submitted, settled: true } } : s;
}

export function reducePrompt(rules: PromptRules, s: PromptState, e: PromptEvent): PromptState {
  switch (e.k) {
    case 'report': {
      const reported = s.reported ? s : { ...s, reported: true };
      const sub = reported.submitted;
      if (e.state === 'done' || e.state === 'error' || (e.state === 'idle' && sub?.running)) return settle(reported);
      if ((e.state === 'working' || e.state === 'needs-input') && sub && !sub.running) return { ...reported, submitted: { ...sub, running: true } };
      return reported;
    }
    case 'offered':
      // Offered only into an empty input: the holder drops the offer once the user types first.
      return s.carried && !s.carried.typed ? withLine({ ...s, carried: { ...s.carried, typed: true } }, s.carried.text, true) : s;
    case 'offerDropped':
      return s.carried && !s.carried.typed ? { ...s, carried: null } : s;
    case 'input': {
      let next = s;
      // A permission dialog takes the keys; the input line waits under it.
      if (e.before !== 'needs-input') {
        const turnRunning = !PROMPT_PHASES.has(e.before);
        for (const edit of editsOf(e.ev, e.bracketedPaste)) next = applyEdit(rules, next, edit, turnRunning);
      }
      // The keys ended the turn (an interrupt, a denial): the user saw it and chose.
      return TURN_PHASES.has(e.before) && e.after === 'idle' ? settle(next) : next;
    }
  }
}

/** What the next incarnation should offer after this one died: the last submission if no reply
 * settled it (and its text is known, and the agent reports at all), else a carried prompt the user
 * has not touched; null for nothing. */
export function lostPrompt(s: PromptState): string | null {
  if (s.submitted !== null) return !s.submitted.settled && s.reported ? s.submitted.text : null;
  if (s.carried && (!s.carried.typed || s.line === s.carried.text)) return s.carried.text;
  return null;
}

/** The state a new incarnation starts with: an empty input, and the prompt to offer, if any. */
export function nextIncarnation(offer: string | null): PromptState {
  return offer === null ? NO_PROMPT : { ...NO_PROMPT, carried: { text: offer, typed: false } };
}
