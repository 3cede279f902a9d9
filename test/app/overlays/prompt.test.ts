import { describe, expect, it } from 'vitest';
import { editPrompt, OPEN_PROMPT, type PromptState } from '../../../src/app/overlays/prompt.js';
import type { InputEvent } from '../../../src/input/events.js';
import { key, text, typed } from './events.js';

function run(state: PromptState, events: InputEvent[]) {
  let action: ReturnType<typeof editPrompt>['action'] = { kind: 'none' };
  for (const ev of events) ({ state, action } = editPrompt(state, ev));
  return { state, action };
}

describe('command prompt', () => {
  it('opens with the slash typed', () => {
    expect(OPEN_PROMPT.line).toEqual({ text: '/', cursor: 1 });
  });

  it('runs a parsed command on Enter', () => {
    const r = run(OPEN_PROMPT, [...typed('name api'), key('enter')]);
    expect(r.action).toEqual({ kind: 'run', command: { name: 'name', arg: 'api' } });
  });

  it('stays open with a one-line error until the text changes', () => {
    let r = run(OPEN_PROMPT, [...typed('nope'), key('enter')]);
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
