import { describe, expect, it } from 'vitest';
import { isExpired, parseResumeAuthority, resumeArgvAt, RESUME_RECORD_MAX_AGE_MS, validateResume, type ResumeRecord } from '../../src/lifecycle/records.js';

const MAX = RESUME_RECORD_MAX_AGE_MS;
const NOW = 1_700_000_000_000;

function record(over: Partial<ResumeRecord> = {}): ResumeRecord {
  return {
    id: 'r1',
    tabId: 't1',
    agentKind: 'claude',
    sessionId: 's1',
    cwd: '/tmp',
    name: 'one',
    origin: 'live',
    capturedAt: NOW - 1_000,
    ...over,
  };
}

const ctx = (over: Partial<Parameters<typeof validateResume>[1]> = {}) => ({
  tabId: 't1',
  now: NOW,
  maxAgeMs: MAX,
  heldElsewhere: () => false,
  ...over,
});

describe('isExpired', () => {
  it('keeps live and quit records exactly maxAge old and expires them 1 ms later', () => {
    for (const origin of ['live', 'quit'] as const) {
      expect(isExpired(record({ origin, capturedAt: NOW - MAX }), NOW, MAX)).toBe(false);
      expect(isExpired(record({ origin, capturedAt: NOW - MAX - 1 }), NOW, MAX)).toBe(true);
    }
  });

  it('never expires a sleep record by age', () => {
    expect(isExpired(record({ origin: 'sleep', capturedAt: NOW - MAX - 1 }), NOW, MAX)).toBe(false);
    expect(isExpired(record({ origin: 'sleep', capturedAt: 0 }), NOW, MAX)).toBe(false);
  });
});

describe('validateResume', () => {
  it('says none when the tab has no record, even if other tabs do', () => {
    expect(validateResume([], ctx())).toEqual({ ok: false, reason: 'none' });
    expect(validateResume([record({ tabId: 'other' })], ctx())).toEqual({ ok: false, reason: 'none' });
  });

  it('resumes a record at the expiry boundary and refuses one 1 ms past it', () => {
    const atBoundary = record({ capturedAt: NOW - MAX });
    expect(validateResume([atBoundary], ctx())).toEqual({ ok: true, record: atBoundary });
    for (const origin of ['live', 'quit'] as const) {
      const past = record({ origin, capturedAt: NOW - MAX - 1 });
      expect(validateResume([past], ctx())).toEqual({ ok: false, reason: 'expired' });
    }
  });

  it('still resumes a sleep record of the same age', () => {
    const sleep = record({ origin: 'sleep', capturedAt: NOW - MAX - 1 });
    expect(validateResume([record({ id: 'old', capturedAt: NOW - MAX - 1 }), sleep], ctx())).toEqual({
      ok: true,
      record: sleep,
    });
  });

  it('picks the newest valid record, skipping expired ones and other tabs', () => {
    const older = record({ id: 'older', capturedAt: NOW - 5_000 });
    const newer = record({ id: 'newer', origin: 'quit', capturedAt: NOW - 2_000 });
    const sibling = record({ id: 'sib', tabId: 't2', capturedAt: NOW });
    const expired = record({ id: 'exp', capturedAt: NOW - MAX - 10 });
    const verdict = validateResume([older, sibling, newer, expired], ctx());
    expect(verdict).toEqual({ ok: true, record: newer });
  });

  it('lets a sleep record win a tie, whatever the order', () => {
    const live = record({ id: 'live', capturedAt: NOW - 1 });
    const sleep = record({ id: 'sleep', origin: 'sleep', capturedAt: NOW - 1 });
    expect(validateResume([live, sleep], ctx())).toEqual({ ok: true, record: sleep });
    expect(validateResume([sleep, live], ctx())).toEqual({ ok: true, record: sleep });
  });

  it('refuses a session another live tab holds, and falls back to one it does not', () => {
    const held = record({ id: 'held', sessionId: 'busy', capturedAt: NOW - 1 });
    const free = record({ id: 'free', sessionId: 'idle', capturedAt: NOW - 9 });
    const heldElsewhere = (id: string) => id === 'busy';
    expect(validateResume([held], ctx({ heldElsewhere }))).toEqual({ ok: false, reason: 'held-elsewhere' });
    expect(validateResume([held, free], ctx({ heldElsewhere }))).toEqual({ ok: true, record: free });
  });

  it('reports held-elsewhere over expired when an unexpired record is held', () => {
    const held = record({ id: 'held', sessionId: 'busy' });
    const expired = record({ id: 'exp', capturedAt: NOW - MAX - 1 });
    expect(validateResume([expired, held], ctx({ heldElsewhere: (id) => id === 'busy' }))).toEqual({
      ok: false,
      reason: 'held-elsewhere',
    });
  });
});

describe("resumeArgvAt (a holder's own restart)", () => {
  const argv = ['agent', '--resume', 's1'];

  it('resumes while the record passes the validator at the holder\'s clock', () => {
    expect(resumeArgvAt({ record: record(), argv }, 't1', NOW)).toEqual({ argv });
    expect(resumeArgvAt({ record: record({ capturedAt: NOW - MAX }), argv }, 't1', NOW)).toEqual({ argv });
  });

  it('refuses a live or quit record that expired since it was given, never a sleep record', () => {
    for (const origin of ['live', 'quit'] as const) {
      expect(resumeArgvAt({ record: record({ origin, capturedAt: NOW - MAX - 1 }), argv }, 't1', NOW)).toEqual({ argv: null, reason: 'expired' });
    }
    expect(resumeArgvAt({ record: record({ origin: 'sleep', capturedAt: 0 }), argv }, 't1', NOW)).toEqual({ argv });
  });

  it('refuses without a record, or with another tab\'s', () => {
    expect(resumeArgvAt(null, 't1', NOW)).toEqual({ argv: null, reason: 'none' });
    expect(resumeArgvAt({ record: record({ tabId: 't2' }), argv }, 't1', NOW)).toEqual({ argv: null, reason: 'none' });
  });
});

describe('parseResumeAuthority', () => {
  it('takes a record and a non-empty argv of strings, and nothing else', () => {
    const good = { record: record(), argv: ['a', '--resume', 's1'] };
    expect(parseResumeAuthority(JSON.parse(JSON.stringify(good)))).toEqual(good);
    for (const bad of [null, 'x', { argv: ['a'] }, { record: record(), argv: [] }, { record: record(), argv: [1] }, { record: { ...record(), origin: 'other' }, argv: ['a'] }, { record: { ...record(), capturedAt: 'x' }, argv: ['a'] }]) {
      expect(parseResumeAuthority(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});
