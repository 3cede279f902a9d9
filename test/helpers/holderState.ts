// A holder's state as tests build it: a running tab with no child, agent or title, changed where
// a test says so.
import type { HolderState } from '../../src/protocol/messages.js';

export function holderStateOf(over: Partial<HolderState> = {}): HolderState {
  return {
    tabId: 't1',
    holderInc: 'h1',
    holderPid: 10,
    childPid: null,
    childStart: null,
    childInc: null,
    lifecycle: 'running',
    exit: null,
    cols: 80,
    rows: 24,
    title: '',
    controller: { clientId: null, rev: 0 },
    agent: null,
    crashes: 0,
    glyph: 'none',
    ...over,
  };
}
