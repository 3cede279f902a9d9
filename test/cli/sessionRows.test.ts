// The rows of `a1 sessions`: one per session, from its newest resume record or else its history,
// with the live tab holding it.
import { describe, expect, it } from 'vitest';
import { sessionRows } from '../../src/cli/sessionRows.js';
import type { ResumeRecord } from '../../src/lifecycle/records.js';
import type { HistoryEntry } from '../../src/store/registry.js';

const rec = (tabId: string, sessionId: string, capturedAt: number, origin: ResumeRecord['origin'] = 'live'): ResumeRecord => ({ id: `${tabId}-${origin}-${capturedAt}`, tabId, agentKind: 'claude', sessionId, cwd: '/w', name: `rec-${tabId}`, origin, capturedAt });
const hist = (sessionId: string | null, at: number): HistoryEntry => ({ id: `h${at}`, tabId: 'gone', name: 'old', agentKind: 'codex', sessionId, cwd: '/h', reason: 'closed', at });

describe('sessionRows', () => {
  it('one row per session from its newest record, history only for sessions no record has, newest first', () => {
    const records = [rec('gone1', 's-a', 1, 'quit'), rec('gone1', 's-a', 3, 'sleep'), rec('gone2', 's-b', 2)];
    const rows = sessionRows(records, [hist('s-a', 9), hist('s-c', 4), hist(null, 8)], []);
    expect(rows.map((r) => [r.sessionId, r.state, r.record, r.at])).toEqual([
      ['s-c', 'closed', null, 4],
      ['s-a', 'resumable', 'sleep', 3],
      ['s-b', 'resumable', 'live', 2],
    ]);
    expect(rows[0]).toEqual({ sessionId: 's-c', agent: 'codex', name: 'old', cwd: '/h', state: 'closed', tabId: null, record: null, at: 4 });
  });

  it('a record of a live tab names that tab (and its current name): open, or asleep when that tab sleeps', () => {
    const tabs = [
      { id: 't1', name: 'renamed', lifecycle: 'running' as const },
      { id: 't2', name: 'napping', lifecycle: 'asleep' as const },
    ];
    const rows = sessionRows([rec('t1', 's-1', 2), rec('t2', 's-2', 1, 'sleep'), rec('gone', 's-3', 3)], [], tabs);
    expect(rows).toEqual([
      { sessionId: 's-3', agent: 'claude', name: 'rec-gone', cwd: '/w', state: 'resumable', tabId: null, record: 'live', at: 3 },
      { sessionId: 's-1', agent: 'claude', name: 'renamed', cwd: '/w', state: 'open', tabId: 't1', record: 'live', at: 2 },
      { sessionId: 's-2', agent: 'claude', name: 'napping', cwd: '/w', state: 'asleep', tabId: 't2', record: 'sleep', at: 1 },
    ]);
  });

  it('none without records or history', () => {
    expect(sessionRows([], [hist(null, 1)], [{ id: 't1', name: 'sh', lifecycle: 'running' }])).toEqual([]);
  });
});
