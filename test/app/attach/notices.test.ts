// What the viewed tab's state tells the person (issue 28): how its program ended, in plain words,
// and the key that starts it again (a command is run again, an agent restarted).
import { describe, it, expect } from 'vitest';
import { tabStateNotice } from '../../../src/app/attach/notices.js';
import type { HolderState } from '../../../src/protocol/messages.js';
import { holderStateOf } from '../../helpers/holderState.js';

const base: HolderState = holderStateOf({ lifecycle: 'exited', exit: { code: 3, signal: null } });
const agent = { kind: 'claude', sessionId: null, state: null, name: null, seq: 1 };

describe('tabStateNotice', () => {
  it.each([
    ['a command that exited 3', base, ['exited with status 3 · read-only', '[r] run again  [alt+w] close']],
    ['a command ended by Ctrl+C', { ...base, exit: { code: null, signal: 2 } }, ['exited: ended by signal SIGINT · read-only', '[r] run again  [alt+w] close']],
    ['node-pty reporting signal 0 for none', { ...base, exit: { code: 0, signal: 0 } }, ['exited with status 0 · read-only', '[r] run again  [alt+w] close']],
    ['an agent that exited 0', { ...base, agent, exit: { code: 0, signal: null } }, ['exited with status 0 · read-only', '[r] restart  [alt+w] close']],
    ['a running tab', { ...base, lifecycle: 'running', exit: null }, []],
  ] as const)('%s', (_what, state, notice) => {
    expect(tabStateNotice(undefined, state as HolderState, 'alt+w')).toEqual(notice);
  });
});
