import { describe, expect, it } from 'vitest';
import { durableToRow, patchToRow, reportOf, rowToDurable } from '../../src/server/rows.js';
import type { TabRow } from '../../src/store/tabRow.js';
import type { HolderState } from '../../src/protocol/messages.js';

const row: TabRow = {
  id: 'tababc_1',
  kind: 'claude',
  sessionId: 'sess-1',
  name: 'work',
  nameSource: 'user',
  ord: 2,
  cwd: '/home/u/p',
  command: ['claude', '--x'],
  desired: 'running',
  lifecycle: 'running',
  holderPid: 100,
  holderStart: '555',
  holderInc: 'abc_2',
  childPid: 101,
  childStart: '556',
  childInc: 'c1',
  controllerRev: 4,
  lastExit: { code: 1, signal: null },
  createdAt: 1_000,
  viewedAt: null,
};

describe('registry rows and core tabs', () => {
  it('round-trip: a row read into the core and written back is the same row', () => {
    const { ord: _ord, ...rest } = row;
    expect(durableToRow(rowToDurable(row), row.createdAt)).toEqual(rest);
  });

  it('a pending incarnation keeps its id with no pid; a row with no child has none', () => {
    const pending = rowToDurable({ ...row, holderPid: null, holderStart: null, childPid: null, childStart: null, childInc: null });
    expect(pending.holder).toEqual({ inc: 'abc_2', pid: null, startTime: null });
    expect(pending.child).toBeNull();
    expect(rowToDurable({ ...row, holderInc: null }).holder).toBeNull();
  });

  it('a patch writes exactly the columns it names, and a cleared holder or child clears all of its own', () => {
    expect(patchToRow({ lifecycle: 'asleep' })).toEqual({ lifecycle: 'asleep' });
    expect(patchToRow({ holder: null, child: null })).toEqual({ holderInc: null, holderPid: null, holderStart: null, childPid: null, childStart: null, childInc: null });
    expect(patchToRow({ child: { pid: 7, inc: 'c', startTime: '9' } })).toEqual({ childPid: 7, childStart: '9', childInc: 'c' });
    expect(patchToRow({ spec: { kind: 'generic', cwd: '/w', command: null, nameSource: 'default' } })).toEqual({ kind: 'generic', cwd: '/w', command: null, nameSource: 'default' });
    expect(patchToRow({ lastExit: null, controllerRev: 0, sessionId: null, desired: 'stopped' })).toEqual({ lastExit: null, controllerRev: 0, sessionId: null, desired: 'stopped' });
  });

  it("a holder's state reports its child only with both pid and incarnation", () => {
    const st = { lifecycle: 'running', childPid: 7, childStart: '9', childInc: 'c', exit: null, glyph: '', title: '✳ Fix', agent: { kind: 'claude', sessionId: 's', state: null, name: 'fix-it', seq: 1 } } as unknown as HolderState;
    expect(reportOf(st)).toEqual({ lifecycle: 'running', sessionId: 's', agentKind: 'claude', child: { pid: 7, inc: 'c', startTime: '9' }, exit: null, glyph: '', title: '✳ Fix', agentName: 'fix-it', agent: true });
    expect(reportOf({ ...st, childInc: null, agent: null }).child).toBeNull();
  });

  it("a holder's state reports its terminal's size, so a replacement can start at it", () => {
    const st = { lifecycle: 'running', childPid: 7, childInc: 'c', exit: null, glyph: '', agent: null, cols: 100, rows: 29 } as unknown as HolderState;
    expect(reportOf(st).size).toEqual({ cols: 100, rows: 29 });
  });
});
