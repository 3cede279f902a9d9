import { describe, expect, it } from 'vitest';
import { pastSessions, refusal } from '../../src/server/answers.js';
import type { ResumeRecord } from '../../src/lifecycle/records.js';
import type { HistoryEntry } from '../../src/store/registry.js';

const rec = (tabId: string, sessionId: string, capturedAt: number, origin: ResumeRecord['origin'] = 'live'): ResumeRecord => ({ id: `${tabId}-${origin}`, tabId, agentKind: 'claude', sessionId, cwd: '/w', name: tabId, origin, capturedAt });
const hist = (sessionId: string | null, at: number): HistoryEntry => ({ id: `h${at}`, tabId: 'gone', name: 'old', agentKind: 'codex', sessionId, cwd: '/h', reason: 'closed', at });

describe('answers', () => {
  it('past sessions: none a live tab holds, one per session (its newest record), then history, newest first', () => {
    const records = [rec('t1', 's-live', 5), rec('gone1', 's-a', 1, 'quit'), rec('gone1', 's-a', 3, 'sleep'), rec('gone2', 's-b', 2)];
    const history = [hist('s-a', 9), hist('s-c', 4), hist(null, 8)];
    const out = pastSessions(records, history, [{ id: 't1', sessionId: 's-live' }]);
    expect(out.map((s) => [s.sessionId, s.state])).toEqual([
      ['s-c', 'closed'],
      ['s-a', 'sleep'],
      ['s-b', 'live'],
    ]);
  });

  it('a record of a live tab is not past, even under another session id', () => {
    expect(pastSessions([rec('t1', 's-old', 1)], [], [{ id: 't1', sessionId: 's-new' }])).toEqual([]);
  });

  it('unavailable means the tab is not running, unless the server is stopping; a claim says no-tab', () => {
    const serving = { serving: true, tabsMax: 8 };
    expect(refusal('view', 'unavailable', serving).code).toBe('holder-unavailable');
    expect(refusal('claim', 'unavailable', serving)).toEqual({ code: 'no-tab', message: 'That tab is not running.' });
    expect(refusal('view', 'unavailable', { ...serving, serving: false }).code).toBe('unavailable');
    expect(refusal('create', 'tabs-max', serving).message).toContain('8');
  });
});
