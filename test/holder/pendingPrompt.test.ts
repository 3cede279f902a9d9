// The prompt a crash may cost (src/holder/pendingPrompt.ts): which line the controller's keys typed,
// which prompt they submitted, whether a reply settled it, and what the next incarnation offers.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propertyRuns } from '../helpers/runs.js';
import type { InputEvent } from '../../src/input/events.js';
import type { AgentPhase } from '../../src/status/model.js';
import {
  MAX_PROMPT_CHARS,
  NO_PROMPT,
  lostPrompt,
  nextIncarnation,
  promptRulesFor,
  reducePrompt,
  touchesInput,
  type PromptEvent,
  type PromptState,
} from '../../src/holder/pendingPrompt.js';

const ENTER: InputEvent = { k: 'key', key: 'enter' };
const BACKSPACE: InputEvent = { k: 'key', key: 'backspace' };
const ESCAPE: InputEvent = { k: 'key', key: 'escape' };
const LEFT: InputEvent = { k: 'key', key: 'left' };
const UP: InputEvent = { k: 'key', key: 'up' };
const TAB: InputEvent = { k: 'key', key: 'tab' };
const CTRL_U: InputEvent = { k: 'text', s: 'u', mods: { ctrl: true } };
const CTRL_C: InputEvent = { k: 'text', s: 'c', mods: { ctrl: true } };
const text = (s: string): InputEvent => ({ k: 'text', s });
const paste = (s: string): InputEvent => ({ k: 'paste', s });

/** A step of a script: an input event at a phase (idle unless said), or an agent report. */
type Step = InputEvent | { report: PromptEvent & { k: 'report' } } | { at: AgentPhase | null; ev: InputEvent; after?: AgentPhase | null };

function toEvent(step: Step, bracketedPaste: boolean): PromptEvent {
  if ('report' in step) return step.report;
  if ('at' in step) return { k: 'input', ev: step.ev, before: step.at, after: step.after === undefined ? step.at : step.after, bracketedPaste };
  return { k: 'input', ev: step, before: 'idle', after: 'idle', bracketedPaste };
}

function run(steps: Step[], kind = 'generic', from: PromptState = { ...NO_PROMPT, reported: true }, bracketedPaste = true): PromptState {
  const rules = promptRulesFor(kind);
  return steps.reduce((s, step) => reducePrompt(rules, s, toEvent(step, bracketedPaste)), from);
}

const report = (state: 'done' | 'idle' | 'error' | 'working' | 'needs-input' | 'heartbeat' | 'progress'): Step => ({ report: { k: 'report', state } });

describe('following the input line', () => {
  const cases: Array<{ name: string; steps: Step[]; kind?: string; line: string | null }> = [
    { name: 'typed text, one event per key or a burst', steps: [text('he'), text('l'), text('lo'), { k: 'key', key: 'space' }, text('w')], line: 'hello w' },
    { name: 'Backspace removes the last character', steps: [text('abc'), BACKSPACE, BACKSPACE], line: 'a' },
    { name: 'Backspace on an empty line changes nothing', steps: [BACKSPACE, text('x')], line: 'x' },
    { name: 'DEL typed as text is Backspace', steps: [text('ab\x7f')], line: 'a' },
    { name: 'a wide character and Backspace', steps: [text('日本'), BACKSPACE], line: '日' },
    { name: 'Backspace over a grapheme of several code points gives up', steps: [text('ok👍🏽'), BACKSPACE], line: null },
    { name: 'a bracketed paste appends, newlines kept', steps: [text('see '), paste('line 1\nline 2')], line: 'see line 1\nline 2' },
    { name: 'Backspace after a paste gives up (the agent may delete it whole)', steps: [paste('long text'), BACKSPACE], line: null },
    { name: 'caret movement gives up', steps: [text('abc'), LEFT, text('x')], line: null },
    { name: 'history recall gives up', steps: [UP], line: null },
    { name: 'Tab (completion) gives up', steps: [text('ab'), TAB], line: null },
    { name: 'Esc gives up', steps: [text('ab'), ESCAPE], line: null },
    { name: 'Alt+key gives up', steps: [text('ab'), { k: 'text', s: 'b', mods: { alt: true } }], line: null },
    { name: 'a click gives up; motion, wheel and focus do not', steps: [
      text('ab'),
      { k: 'mouse', action: 'move', button: 'none', x: 1, y: 1 },
      { k: 'mouse', action: 'press', button: 'wheelUp', x: 1, y: 1 },
      { k: 'focus', focused: false },
    ], line: 'ab' },
    { name: 'a click', steps: [text('ab'), { k: 'mouse', action: 'press', button: 'left', x: 1, y: 1 }], line: null },
    { name: 'Ctrl+U: generic agents differ, so it gives up', steps: [text('abc'), CTRL_U], line: null },
    { name: 'Ctrl+U empties a one-line input of Claude Code', kind: 'claude', steps: [text('abc'), CTRL_U, text('d')], line: 'd' },
    { name: 'Ctrl+U on a multi-line input of Claude Code gives up', kind: 'claude', steps: [paste('a\nb'), CTRL_U], line: null },
    { name: 'Ctrl+C at the prompt clears the input of Codex', kind: 'codex', steps: [text('abc'), CTRL_C], line: '' },
    { name: 'Ctrl+C at the prompt of a generic agent gives up', steps: [text('abc'), CTRL_C], line: null },
    { name: 'after giving up, Enter empties the input and following resumes', steps: [LEFT, ENTER, text('ok')], line: 'ok' },
    { name: 'keys in a permission dialog leave the line alone', steps: [text('draft'), { at: 'needs-input', ev: text('1') }, { at: 'needs-input', ev: ENTER, after: 'working' }], line: 'draft' },
    { name: 'typing while a turn runs (type-ahead) is followed', steps: [{ at: 'working', ev: text('next') }], line: 'next' },
  ];
  it.each(cases)('$name', ({ steps, kind, line }) => {
    expect(run(steps, kind).line).toBe(line === null ? null : line);
  });

  it('a paste without bracketed paste mode is typed text: its DEL erases, its newline submits', () => {
    const s = run([text('x'), paste('yq\x7fz\rw')], 'generic', { ...NO_PROMPT, reported: true }, false);
    expect(s.submitted).toEqual({ text: 'xyz', running: false, settled: false });
    expect(s.line).toBe('w');
  });

  it('a line past the bound is not followed', () => {
    const s = run([paste('x'.repeat(MAX_PROMPT_CHARS)), text('y')]);
    expect(s.line).toBeNull();
  });
});

describe('submissions and what a death leaves to offer', () => {
  const cases: Array<{ name: string; steps: Step[]; kind?: string; offer: string | null }> = [
    { name: 'submitted, no reply: offered', steps: [text('fix the bug'), ENTER], offer: 'fix the bug' },
    { name: 'submitted while working was reported: offered', steps: [text('fix it'), ENTER, report('working'), report('progress')], offer: 'fix it' },
    { name: 'a dialog still waiting: offered', steps: [text('fix it'), ENTER, report('needs-input')], offer: 'fix it' },
    { name: 'settled by done', steps: [text('fix it'), ENTER, report('working'), report('done')], offer: null },
    { name: 'settled by idle after the turn ran (an interrupted turn)', steps: [text('fix it'), ENTER, report('working'), report('idle')], offer: null },
    { name: 'settled by idle after a dialog (denied)', steps: [text('fix it'), ENTER, report('needs-input'), report('idle')], offer: null },
    { name: 'an idle before the turn was seen (a late start report) does not settle', steps: [text('fix it'), ENTER, report('idle'), report('working')], offer: 'fix it' },
    { name: 'settled by error', steps: [text('fix it'), ENTER, report('error')], offer: null },
    { name: 'a draft is not a submission', steps: [text('fix it'), ENTER, report('done'), text('next one')], offer: null },
    { name: 'the last submission counts', steps: [text('one'), ENTER, report('done'), text('two'), ENTER], offer: 'two' },
    { name: 'Enter on an empty line submits nothing', steps: [text('one'), ENTER, ENTER], offer: 'one' },
    { name: 'a submission of a line not followed: nothing', steps: [text('one'), ENTER, report('done'), text('ab'), LEFT, text('c'), ENTER], offer: null },
    { name: 'a raw byte may have submitted: nothing', steps: [text('one'), ENTER, { k: 'raw', bytes: '\x1bOM' }], offer: null },
    { name: 'Alt+Enter may have submitted: nothing', steps: [text('one'), ENTER, text('two'), { k: 'key', key: 'enter', mods: { alt: true } }], offer: null },
    { name: 'a second prompt queued while the first runs: nothing', steps: [text('one'), ENTER, { at: 'working', ev: text('two') }, { at: 'working', ev: ENTER }], offer: null },
    { name: 'Enter on an empty line while a turn runs changes nothing', steps: [text('one'), ENTER, { at: 'working', ev: ENTER }], offer: 'one' },
    { name: 'an interrupt ends the turn: settled', steps: [text('one'), ENTER, { at: 'working', ev: ESCAPE, after: 'idle' }], offer: null },
    { name: 'a denied permission ends the turn: settled', steps: [text('one'), ENTER, { at: 'needs-input', ev: text('n'), after: 'idle' }], offer: null },
    { name: 'an approved permission does not', steps: [text('one'), ENTER, { at: 'needs-input', ev: text('y'), after: 'working' }], offer: 'one' },
    { name: 'a pasted prompt, newlines and all', steps: [paste('line 1\nline 2'), ENTER], offer: 'line 1\nline 2' },
    { name: 'Claude Code: a slash command is not followed', kind: 'claude', steps: [text('/cl'), ENTER], offer: null },
    { name: 'Claude Code: an @ mention is not followed', kind: 'claude', steps: [text('read @src/a.ts'), ENTER], offer: null },
    { name: 'Claude Code: a trailing backslash makes Enter a newline', kind: 'claude', steps: [text('one\\'), ENTER, text('two'), ENTER], offer: null },
    { name: 'Claude Code: a plain prompt', kind: 'claude', steps: [text('explain this'), ENTER], offer: 'explain this' },
    { name: 'Codex: the shell prefix is not followed', kind: 'codex', steps: [text('!ls'), ENTER], offer: null },
    { name: 'a generic agent: a slash prompt is its text', steps: [text('/work on it'), ENTER], offer: '/work on it' },
  ];
  it.each(cases)('$name', ({ steps, kind, offer }) => {
    expect(lostPrompt(run(steps, kind))).toBe(offer);
  });

  it('an incarnation that never reported offers nothing: it cannot tell an answered prompt from a lost one', () => {
    expect(lostPrompt(run([text('one'), ENTER], 'generic', NO_PROMPT))).toBeNull();
    expect(lostPrompt(run([text('one'), ENTER, report('heartbeat')], 'generic', NO_PROMPT))).toBe('one');
  });

  it('the carried prompt: offered again until the user submits or edits it', () => {
    const rules = promptRulesFor('generic');
    const fresh = nextIncarnation('lost one');
    expect(fresh).toMatchObject({ line: '', submitted: null, reported: false, carried: { text: 'lost one', typed: false } });
    // Died again before it was typed: still carried.
    expect(lostPrompt(fresh)).toBe('lost one');
    const typed = reducePrompt(rules, fresh, { k: 'offered' });
    expect(typed).toMatchObject({ line: 'lost one', pasted: true, carried: { typed: true } });
    // Typed and untouched (or edited back to it): offered again.
    expect(lostPrompt(typed)).toBe('lost one');
    expect(lostPrompt(run([text('x'), text('\x7f')], 'generic', typed))).toBeNull(); // Backspace after a paste gives up
    expect(lostPrompt(run([text(' more')], 'generic', typed))).toBeNull();
    // Submitted: now it is this incarnation's prompt, settled or not.
    expect(lostPrompt(run([ENTER], 'generic', typed))).toBeNull(); // not reported yet
    expect(lostPrompt(run([report('idle'), ENTER], 'generic', typed))).toBe('lost one');
    expect(lostPrompt(run([report('idle'), ENTER, report('done')], 'generic', typed))).toBeNull();
    expect(lostPrompt(run([report('idle'), ENTER, report('idle')], 'generic', typed))).toBe('lost one');
    // Dropped before it was typed (the user typed first): gone.
    expect(lostPrompt(reducePrompt(rules, fresh, { k: 'offerDropped' }))).toBeNull();
    expect(nextIncarnation(null)).toBe(NO_PROMPT);
  });

  it('focus reports and mouse motion do not touch the input; keys, pastes and clicks do', () => {
    expect(touchesInput({ k: 'focus', focused: true })).toBe(false);
    expect(touchesInput({ k: 'mouse', action: 'move', button: 'none', x: 0, y: 0 })).toBe(false);
    expect(touchesInput({ k: 'mouse', action: 'press', button: 'left', x: 0, y: 0 })).toBe(true);
    expect(touchesInput(text('a'))).toBe(true);
    expect(touchesInput(paste('a'))).toBe(true);
    expect(touchesInput(ESCAPE)).toBe(true);
  });

  it('every table names the version it was read from', () => {
    expect(promptRulesFor('claude').version).toBe('2.1.328');
    expect(promptRulesFor('codex').version).toBe('0.169.0');
    expect(promptRulesFor('aider')).toBe(promptRulesFor('generic'));
    // Codex reports nothing when it starts: a1 waits for it to go quiet instead of for its idle.
    expect(promptRulesFor('codex').idleOnStart).toBe(false);
    expect(promptRulesFor('claude').idleOnStart).toBe(true);
    expect(promptRulesFor(null)).toBe(promptRulesFor('generic'));
  });
});

/**
 * A line editor that does what the tracker does not follow: a caret that moves, Delete, history
 * recall, kill to start, completion, Esc clearing. The tracker drives the same keys; whatever it
 * offers must be what this editor really submitted and no reply settled.
 */
class ReferenceEditor {
  buf: string[] = [];
  caret = 0;
  history: string[] = [];
  lastSubmitted: string | null = null;
  settled = true;

  key(ev: InputEvent): void {
    if (ev.k === 'text' && !ev.mods) for (const ch of ev.s) this.char(ch);
    else if (ev.k === 'text' && ev.mods?.ctrl && ev.s === 'u') this.killToStart();
    else if (ev.k === 'paste') this.insert([...ev.s]);
    else if (ev.k === 'key') this.named(ev.key);
  }

  running = false;

  report(state: string): void {
    if (state === 'working') this.running = true;
    if (state === 'done' || state === 'error' || (state === 'idle' && this.running)) this.settled = true;
  }

  private char(ch: string): void {
    if (ch === '\r') this.enter();
    else if (ch === '\x7f') this.backspace();
    else this.insert([ch]);
  }

  private insert(cps: string[]): void {
    this.buf.splice(this.caret, 0, ...cps);
    this.caret += cps.length;
  }

  private backspace(): void {
    if (this.caret === 0) return;
    this.buf.splice(this.caret - 1, 1);
    this.caret -= 1;
  }

  private killToStart(): void {
    this.buf.splice(0, this.caret);
    this.caret = 0;
  }

  private enter(): void {
    if (this.buf.length === 0) return;
    this.lastSubmitted = this.buf.join('');
    this.settled = false;
    this.running = false;
    this.history.push(this.lastSubmitted);
    this.buf = [];
    this.caret = 0;
  }

  private named(key: string): void {
    switch (key) {
      case 'enter': return this.enter();
      case 'backspace': return this.backspace();
      case 'left': this.caret = Math.max(0, this.caret - 1); return;
      case 'right': this.caret = Math.min(this.buf.length, this.caret + 1); return;
      case 'home': this.caret = 0; return;
      case 'end': this.caret = this.buf.length; return;
      case 'delete': this.buf.splice(this.caret, 1); return;
      case 'up':
        if (this.history.length > 0) {
          this.buf = [...this.history[this.history.length - 1]];
          this.caret = this.buf.length;
        }
        return;
      case 'tab': this.insert([...'completed']); return;
      case 'escape': this.buf = []; this.caret = 0; return;
    }
  }
}

const keyArb: fc.Arbitrary<InputEvent> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'é', '日', ' ', 'x\u0301', '👍🏽').map(text) },
  { weight: 2, arbitrary: fc.constantFrom('pasted', 'two\nlines').map(paste) },
  { weight: 2, arbitrary: fc.constant(BACKSPACE) },
  { weight: 2, arbitrary: fc.constant(ENTER) },
  { weight: 1, arbitrary: fc.constant(CTRL_U) },
  { weight: 1, arbitrary: fc.constantFrom<InputEvent>(LEFT, { k: 'key', key: 'right' }, { k: 'key', key: 'home' }, { k: 'key', key: 'end' }, { k: 'key', key: 'delete' }, UP, TAB, ESCAPE) },
);

type Action = { key: InputEvent } | { report: 'done' | 'idle' | 'working' };
const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 8, arbitrary: keyArb.map((key) => ({ key })) },
  { weight: 1, arbitrary: fc.constantFrom('done', 'idle', 'working').map((r) => ({ report: r as 'done' | 'idle' | 'working' })) },
);

describe('never wrong text', () => {
  it('whatever the tracker offers is what the editor submitted and no reply settled', () => {
    fc.assert(
      fc.property(fc.array(actionArb, { maxLength: 60 }), (actions) => {
        const rules = promptRulesFor('generic');
        const ref = new ReferenceEditor();
        let s: PromptState = { ...NO_PROMPT, reported: true };
        for (const a of actions) {
          if ('key' in a) {
            ref.key(a.key);
            s = reducePrompt(rules, s, { k: 'input', ev: a.key, before: 'idle', after: 'idle', bracketedPaste: true });
          } else {
            ref.report(a.report);
            s = reducePrompt(rules, s, { k: 'report', state: a.report });
          }
          // The line, when followed, is the editor's.
          if (s.line !== null) expect(s.line).toBe(ref.buf.join(''));
          const offer = lostPrompt(s);
          if (offer !== null) {
            expect(ref.settled).toBe(false);
            expect(offer).toBe(ref.lastSubmitted);
          }
        }
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('plain typing, pasting and Enter are always followed: the last unsettled prompt is offered', () => {
    const plain = fc.oneof(
      fc.constantFrom('a', 'b', 'é', ' ', '日').map(text),
      fc.constantFrom('pasted', 'two\nlines').map(paste),
    );
    fc.assert(
      fc.property(fc.array(plain, { minLength: 1, maxLength: 20 }), (keys) => {
        const s = run([...keys, ENTER]);
        const expected = keys.map((k) => (k.k === 'text' || k.k === 'paste' ? k.s : '')).join('');
        expect(lostPrompt(s)).toBe(expected);
      }),
    );
  });
});
