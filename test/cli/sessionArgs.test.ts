// The `a1 --session <id|path> [--session-dir DIR]` grammar (SPEC §11): every accepted form and
// every misuse, each misuse with its one sentence.
import { describe, it, expect } from 'vitest';
import path from 'node:path';
import { isSessionLaunch, parseSessionLaunch, sessionTarget } from '../../src/cli/sessionArgs.js';

const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('isSessionLaunch', () => {
  it.each([
    [['--session', 'abc']],
    [['--session=abc']],
    [['--session-dir', '/tmp']],
    [['--session-dir=/tmp']],
    [['--profile', 'p', '--session', 'abc']],
  ])('%j is a session launch', (args) => {
    expect(isSessionLaunch(args)).toBe(true);
  });

  it.each([[[]], [['new', '--name', 'x']], [['sessions', '--json']], [['--sessions']], [['tabs', '--json']]])(
    '%j is left to yargs',
    (args) => {
      expect(isSessionLaunch(args)).toBe(false);
    },
  );
});

describe('parseSessionLaunch accepts', () => {
  it.each([
    [['--session', 'abc'], { session: 'abc', sessionDir: null, profile: null }],
    [['--session=abc'], { session: 'abc', sessionDir: null, profile: null }],
    [['--session', 'abc', '--session-dir', '/w'], { session: 'abc', sessionDir: '/w', profile: null }],
    [['--session-dir', '/w', '--session', 'abc'], { session: 'abc', sessionDir: '/w', profile: null }],
    [['--session-dir=/w', '--session=abc'], { session: 'abc', sessionDir: '/w', profile: null }],
    [['--session=abc', '--session-dir', '/w'], { session: 'abc', sessionDir: '/w', profile: null }],
    [['--session', '/a/b/c.jsonl'], { session: '/a/b/c.jsonl', sessionDir: null, profile: null }],
    [['--profile', 'work', '--session', 'abc'], { session: 'abc', sessionDir: null, profile: 'work' }],
    [['--session', 'abc', '--profile=work'], { session: 'abc', sessionDir: null, profile: 'work' }],
    // A value is everything after the first '='.
    [['--session=a=b'], { session: 'a=b', sessionDir: null, profile: null }],
  ])('%j', (args, expected) => {
    expect(parseSessionLaunch(args)).toEqual({ ok: true, ...expected });
  });
});

describe('parseSessionLaunch refuses, in one sentence', () => {
  it.each([
    // Missing or empty value.
    [['--session'], '--session needs a value.'],
    [['--session', ''], '--session needs a value.'],
    [['--session', '   '], '--session needs a value.'],
    [['--session='], '--session needs a value.'],
    [['--session', '--session-dir', '/w'], '--session needs a value.'],
    [['--session', 'abc', '--session-dir'], '--session-dir needs a value.'],
    [['--session', 'abc', '--session-dir='], '--session-dir needs a value.'],
    [['--session-dir', '--session', 'abc'], '--session-dir needs a value.'],
    [['--session', 'abc', '--profile'], '--profile needs a value.'],
    // Duplicate option, in every spelling.
    [['--session', 'a', '--session', 'b'], '--session is given more than once.'],
    [['--session=a', '--session', 'b'], '--session is given more than once.'],
    [['--session', 'a', '--session=a'], '--session is given more than once.'],
    [['--session-dir', '/w', '--session', 'a', '--session-dir', '/v'], '--session-dir is given more than once.'],
    // Unknown option.
    [['--session', 'abc', '--bogus'], '--bogus is not an option of a1 --session.'],
    [['--bogus', '--session', 'abc'], '--bogus is not an option of a1 --session.'],
    [['--session', 'abc', '--bogus=1'], '--bogus=1 is not an option of a1 --session.'],
    [['--session', 'abc', '-x'], '-x is not an option of a1 --session.'],
    // Extra argument.
    [['--session', 'abc', 'extra'], 'Unexpected argument "extra": a1 --session takes one session.'],
    [['extra', '--session', 'abc'], 'Unexpected argument "extra": a1 --session takes one session.'],
    // --session-dir alone.
    [['--session-dir', '/w'], '--session-dir needs --session <id|path>.'],
    [['--session-dir=/w'], '--session-dir needs --session <id|path>.'],
  ])('%j', (args, message) => {
    const parsed = parseSessionLaunch(args);
    expect(parsed).toEqual({ ok: false, message });
    if (!parsed.ok) expect(parsed.message).not.toContain('\n');
  });
});

describe('sessionTarget', () => {
  it('passes an id through', () => {
    expect(sessionTarget('abc-123')).toEqual({ sessionId: 'abc-123', agent: null, isPath: false });
    expect(sessionTarget(UUID)).toEqual({ sessionId: UUID, agent: null, isPath: false });
  });

  it('names a session file by its base name', () => {
    expect(sessionTarget('/tmp/x/abc.jsonl')).toEqual({ sessionId: 'abc', agent: null, isPath: true });
    expect(sessionTarget('abc.jsonl')).toEqual({ sessionId: 'abc', agent: null, isPath: true });
    expect(sessionTarget('./abc.json')).toEqual({ sessionId: 'abc', agent: null, isPath: true });
  });

  it('takes the uuid that ends a file name', () => {
    expect(sessionTarget(`/tmp/rollout-2025-01-01T10-00-00-${UUID}.jsonl`).sessionId).toBe(UUID);
  });

  it('names the session by the file an alias resolves to, and knows the agent from either path', () => {
    expect(sessionTarget('/tmp/links/other-name.jsonl', '/tmp/x/abc.jsonl')).toEqual({ sessionId: 'abc', agent: null, isPath: true });
    expect(sessionTarget('/tmp/links/latest.jsonl', `/home/u/.claude/projects/p/${UUID}.jsonl`)).toEqual({ sessionId: UUID, agent: 'claude', isPath: true });
    expect(sessionTarget(`/home/u/.codex/link-${UUID}.jsonl`, `/srv/store/${UUID}.jsonl`)).toEqual({ sessionId: UUID, agent: 'codex', isPath: true });
    expect(sessionTarget('abc-123', '/ignored/for/an/id.jsonl')).toEqual({ sessionId: 'abc-123', agent: null, isPath: false });
  });

  it('knows the agent from where its session files live', () => {
    expect(sessionTarget(`/home/u/.claude/projects/p/${UUID}.jsonl`)).toEqual({ sessionId: UUID, agent: 'claude', isPath: true });
    expect(sessionTarget(`/home/u/.codex/sessions/2025/01/01/rollout-x-${UUID}.jsonl`)).toEqual({ sessionId: UUID, agent: 'codex', isPath: true });
    // Relative paths are resolved against the current directory before looking.
    const rel = path.relative(process.cwd(), `/home/u/.claude/p/${UUID}.jsonl`);
    expect(sessionTarget(rel).agent).toBe('claude');
  });
});
