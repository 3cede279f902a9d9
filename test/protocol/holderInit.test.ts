// HolderInit (src/protocol/holderInit.ts): the line the server writes on a new holder's fd 3 is
// declared once, and the holder refuses one that does not match instead of trusting a cast.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { holderInitOf, type HolderIODeps, type SpawnPlan } from '../../src/server/holderIODeps.js';
import { parseHolderInit, type HolderInit } from '../../src/protocol/holderInit.js';
import { ProtocolError } from '../../src/protocol/errors.js';
import { resolvePaths } from '../../src/paths.js';
import { defaultConfig } from '../../src/config.js';

const paths = resolvePaths({ env: { A1_HOME: '/tmp/a1-init-test' }, profile: 'default' });
const deps = { paths, config: defaultConfig({}), secret: crypto.randomBytes(32), epoch: 7, entry: '/opt/a1/dist/main.js' } as HolderIODeps;
const plan: SpawnPlan = { command: ['/bin/bash'], resume: null, agentKind: null, cwd: '/tmp', env: { PATH: '/usr/bin', HOME: '/tmp' }, umask: 0o022, cols: 80, rows: 24 };
const resume = {
  record: { id: 'r1', tabId: 't1', agentKind: 'claude', sessionId: 's1', cwd: '/tmp', name: 'x', origin: 'live' as const, capturedAt: 1 },
  argv: ['claude', '--resume', 's1'],
};

/** The line as the server writes it (src/server/holderLink.ts). */
function lineOf(init: object): string {
  return JSON.stringify(init);
}

function codeOf(result: HolderInit | ProtocolError): string | null {
  return result instanceof ProtocolError ? result.code : null;
}

describe('the holder init', () => {
  const real = holderInitOf(deps, crypto.randomBytes(32), 't1', 'inc1', plan);

  it("accepts what the server writes: a shell tab, an agent tab with a resume record, a test's short heartbeat", () => {
    expect(parseHolderInit(lineOf(real))).toEqual(real);
    const agent = holderInitOf(deps, crypto.randomBytes(32), 't1', 'inc1', { ...plan, agentKind: 'claude', resume });
    expect(parseHolderInit(lineOf(agent))).toEqual(agent);
    const short = holderInitOf({ ...deps, testUnresponsiveMs: 200 }, crypto.randomBytes(32), 't1', 'inc1', plan);
    expect(parseHolderInit(lineOf(short))).toEqual(short);
  });

  it('accepts an older server that leaves out the fields it has none of, and reads them as absent', () => {
    const { shimDir: _s, unresponsiveMs: _u, serverSocketPath: _p, writerLockPath: _w, profile: _f, ...older } = real;
    const parsed = parseHolderInit(lineOf({ ...older, shimDir: null }));
    expect(codeOf(parsed)).toBeNull();
    expect((parsed as HolderInit).shimDir).toBeUndefined();
    expect((parsed as HolderInit).serverSocketPath).toBeUndefined();
    expect((parsed as HolderInit).agentKind).toBeNull();
    expect((parsed as HolderInit).resume).toBeNull();
  });

  it('refuses a missing field, a wrong type, an environment of non-strings, and what is not an object', () => {
    for (const field of ['tabId', 'epoch', 'command', 'env', 'holderKey', 'socketPath', 'logDir', 'stallNoticeMs']) {
      const without: Record<string, unknown> = { ...real };
      delete without[field];
      expect(codeOf(parseHolderInit(lineOf(without))), field).toBe('bad-field');
    }
    const wrong: [string, unknown][] = [
      ['epoch', '7'],
      ['cols', 80.5],
      ['command', 'bash'],
      ['command', ['bash', 1]],
      ['env', ['PATH=/bin']],
      ['resume', 'yes'],
      ['agentKind', 3],
      ['unresponsiveMs', 'fast'],
    ];
    for (const [field, value] of wrong) expect(codeOf(parseHolderInit(lineOf({ ...real, [field]: value }))), field).toBe('bad-field');
    expect(codeOf(parseHolderInit(lineOf({ ...real, env: { PATH: 1 } })))).toBe('bad-field');
    expect(codeOf(parseHolderInit('[1]'))).toBe('not-object');
    expect(codeOf(parseHolderInit('{"tabId":'))).toBe('malformed');
  });

  it('never quotes the line in its refusal: the line carries keys', () => {
    const refused = parseHolderInit(lineOf({ ...real, epoch: 'x' })) as ProtocolError;
    expect(refused.message).not.toContain(real.holderKey);
    expect(refused.message).toContain('"epoch"');
  });
});
