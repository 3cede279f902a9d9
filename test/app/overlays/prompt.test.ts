import { describe, expect, it } from 'vitest';
import { editPrompt, OPEN_PROMPT, promptMessageLines, type PromptState } from '../../../src/app/overlays/prompt.js';
import type { InputEvent } from '../../../src/input/events.js';
import { key, text, typed } from './events.js';

function run(state: PromptState, events: InputEvent[]) {
  let action: ReturnType<typeof editPrompt>['action'] = { kind: 'none' };
  for (const ev of events) ({ state, action } = editPrompt(state, ev));
  return { state, action };
}

describe('command prompt', () => {
  it('opens empty (issue 18: a typed / made //tabs)', () => {
    expect(OPEN_PROMPT.line).toEqual({ text: '', cursor: 0 });
  });

  it('runs /tabs and tabs alike', () => {
    expect(run(OPEN_PROMPT, [...typed('/tabs'), key('enter')]).action).toEqual({ kind: 'run', command: { name: 'tabs' } });
    expect(run(OPEN_PROMPT, [...typed('tabs'), key('enter')]).action).toEqual({ kind: 'run', command: { name: 'tabs' } });
  });

  it('Tab completes the command word at the end of the line, and lists several', () => {
    let r = run(OPEN_PROMPT, [...typed('/ta'), key('tab')]);
    expect(r.state.line).toEqual({ text: '/tabs', cursor: 5 });
    expect(r.state.hint).toBeNull();
    r = run(OPEN_PROMPT, [...typed('/n'), key('tab')]);
    expect(r.state.line.text).toBe('/n');
    expect(r.state.hint).toBe('/new-tab  /next-tab  /name');
    // The next change to the text clears the list.
    r = run(r.state, [text('a')]);
    expect(r.state.hint).toBeNull();
    r = run(r.state, [key('tab')]);
    expect(r.state.line.text).toBe('/name ');
    // Not in the middle of the line.
    r = run(OPEN_PROMPT, [...typed('/ta'), key('left'), key('tab')]);
    expect(r.state.line.text).toBe('/ta');
  });

  it('runs a parsed command on Enter', () => {
    const r = run(OPEN_PROMPT, [...typed('name api'), key('enter')]);
    expect(r.action).toEqual({ kind: 'run', command: { name: 'name', arg: 'api' } });
  });

  it('stays open with a one-line error until the text changes', () => {
    let r = run(OPEN_PROMPT, [...typed('/nope'), key('enter')]);
    expect(r.action).toEqual({ kind: 'none' });
    expect(r.state.error).toMatch(/^Unknown command \/nope/);
    expect(r.state.line.text).toBe('/nope');
    r = run(r.state, [key('home')]);
    expect(r.state.error).not.toBeNull();
    r = run(r.state, [key('end'), key('backspace')]);
    expect(r.state.error).toBeNull();
  });

  it('closes on Escape, and on Enter with nothing typed', () => {
    expect(run(OPEN_PROMPT, [text('t'), key('escape')]).action).toEqual({ kind: 'cancel' });
    expect(run(OPEN_PROMPT, [key('enter')]).action).toEqual({ kind: 'cancel' });
    expect(run(OPEN_PROMPT, [key('backspace'), key('enter')]).action).toEqual({ kind: 'cancel' });
  });
});

describe('promptMessageLines', () => {
  it('wraps a long error to the width, whole', () => {
    const r = run(OPEN_PROMPT, [...typed('/frobnicate'), key('enter')]);
    const lines = promptMessageLines(r.state, 36);
    expect(lines.every((l) => l.length <= 36)).toBe(true);
    expect(lines.join(' ')).toBe(r.state.error);
    expect(lines.at(-1)).toMatch(/\/help\.$/);
  });
});
