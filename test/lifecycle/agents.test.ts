import { describe, expect, it } from 'vitest';
import { resumeArgv, startArgv } from '../../src/lifecycle/agents.js';
import type { AgentSpec } from '../../src/config.js';

const spec = (over: Partial<AgentSpec>): AgentSpec => ({ command: null, resume: null, hooks: null, ...over });

describe('resumeArgv', () => {
  it('replaces {sessionId} wherever it appears inside an argument', () => {
    const s = spec({ resume: ['claude', '--resume', '{sessionId}', '--tag={sessionId}-{sessionId}'] });
    expect(resumeArgv(s, ['ignored'], 'abc')).toEqual(['claude', '--resume', 'abc', '--tag=abc-abc']);
  });

  it('splices the tab argv for an argument that is exactly {command}', () => {
    const s = spec({ resume: ['{command}', '--resume', '{sessionId}', 'x{command}'] });
    expect(resumeArgv(s, ['/opt/agent', '--flag'], 'id')).toEqual(['/opt/agent', '--flag', '--resume', 'id', 'x{command}']);
  });

  it('keeps a session id literal, even one that looks like a replacement pattern', () => {
    expect(resumeArgv(spec({ resume: ['a', '{sessionId}'] }), [], "$&$'$1")).toEqual(['a', "$&$'$1"]);
  });

  it('does not expand {sessionId} inside the spliced tab argv', () => {
    expect(resumeArgv(spec({ resume: ['{command}', '{sessionId}'] }), ['run', '{sessionId}'], 's')).toEqual([
      'run',
      '{sessionId}',
      's',
    ]);
  });

  it('is null without a template, with an empty or NUL-bearing session id, or when nothing is left', () => {
    expect(resumeArgv(spec({ resume: null }), ['sh'], 'id')).toBeNull();
    expect(resumeArgv(spec({ resume: ['a', '{sessionId}'] }), ['sh'], '')).toBeNull();
    expect(resumeArgv(spec({ resume: ['a', '{sessionId}'] }), ['sh'], 'a\0b')).toBeNull();
    expect(resumeArgv(spec({ resume: ['{command}'] }), [], 'id')).toBeNull();
  });

  it('does not alias the template', () => {
    const s = spec({ resume: ['a', '{sessionId}'] });
    const argv = resumeArgv(s, [], 'x');
    argv?.push('more');
    expect(s.resume).toEqual(['a', '{sessionId}']);
  });
});

describe('startArgv', () => {
  it('prefers the agent command and falls back to the tab command', () => {
    expect(startArgv(spec({ command: ['claude'] }), ['bash'])).toEqual(['claude']);
    expect(startArgv(spec({ command: null }), ['bash', '-l'])).toEqual(['bash', '-l']);
  });

  it('returns a copy', () => {
    const tab = ['bash'];
    startArgv(spec({}), tab).push('x');
    expect(tab).toEqual(['bash']);
  });
});
