import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  InvalidProfileError,
  SOCKET_PATH_MAX,
  UnsafePathError,
  ensurePrivateDir,
  ensureProfileDirs,
  parseSocketName,
  resolvePaths,
  validateProfileName,
} from '../src/paths.js';
import { modeOf } from './helpers/fileModes.js';

const isRoot = process.getuid?.() === 0;
/** The conventional unprivileged "nobody" uid: certainly not the uid running the tests. */
const NOBODY = 65534;

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-paths-'));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function expectUnsafe(fn: () => void, pathNamed: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(UnsafePathError);
  const error = caught as UnsafePathError;
  expect(error.code).toBe('unsafe-path');
  expect(error.path).toBe(pathNamed);
  expect(error.message).toContain(pathNamed);
  expect(error.message).toMatch(/^[^\n]+\.$/);
}

describe('profile names', () => {
  it('takes the option, then A1_PROFILE, then "default"', () => {
    const home = path.join(tmp, 'h');
    expect(resolvePaths({ env: {}, home }).profile).toBe('default');
    expect(resolvePaths({ env: { A1_PROFILE: 'work' }, home }).profile).toBe('work');
    expect(resolvePaths({ env: { A1_PROFILE: 'work' }, profile: 'play', home }).profile).toBe('play');
  });

  it.each(['', '.', '..', 'a/b', 'a b', '../x', 'x'.repeat(65), 'é'])('refuses %j', (name) => {
    expect(() => validateProfileName(name)).toThrow(InvalidProfileError);
    expect(() => resolvePaths({ env: { A1_HOME: tmp }, profile: name })).toThrow(/^Profile name .* is invalid: .*\.$/);
  });

  it.each(['a', 'A.b-c_9', 'x'.repeat(64), '.hidden'])('accepts %j', (name) => {
    expect(validateProfileName(name)).toBe(name);
  });

  it('reports a typed error', () => {
    try {
      validateProfileName('..');
      expect.unreachable();
    } catch (error) {
      expect((error as InvalidProfileError).code).toBe('invalid-profile');
    }
  });
});

describe('resolvePaths', () => {
  it('puts everything under A1_HOME', () => {
    const p = resolvePaths({ env: { A1_HOME: tmp, XDG_STATE_HOME: '/elsewhere', TMPDIR: '/nowhere' }, profile: 'p1' });
    expect(p.a1Home).toBe(tmp);
    expect(p.configDir).toBe(path.join(tmp, 'config'));
    expect(p.stateDir).toBe(path.join(tmp, 'state', 'p1'));
    expect(p.runDir).toBe(path.join(tmp, 'run', 'p1'));
    expect(p.socketDir).toBe(p.runDir);
    expect(p.configFile).toBe(path.join(tmp, 'config', 'config.json'));
    expect(p.keybindingsFile).toBe(path.join(tmp, 'config', 'keybindings.json'));
    expect(p.registryFile).toBe(path.join(p.stateDir, 'registry.db'));
    expect(p.secretFile).toBe(path.join(p.stateDir, 'secret'));
    expect(p.backupsDir).toBe(path.join(p.stateDir, 'backups'));
    expect(p.logsDir).toBe(path.join(p.stateDir, 'logs'));
    expect(p.crashDir).toBe(path.join(p.stateDir, 'crash'));
    expect(p.recoveryDir).toBe(path.join(p.stateDir, 'recovery'));
    expect(p.serverSock).toBe(path.join(p.runDir, 'server.sock'));
    expect(p.clientTokenFile).toBe(path.join(p.runDir, 'client.token'));
    expect(p.holderSock('tab_abc', 'inc1')).toBe(path.join(p.runDir, 'h-tab_abc-inc1.sock'));
    expect(p.bridgeSock('tab_abc', 'inc1')).toBe(path.join(p.runDir, 'b-tab_abc-inc1.sock'));
  });

  it('makes a relative A1_HOME absolute', () => {
    expect(resolvePaths({ env: { A1_HOME: 'rel/home' } }).a1Home).toBe(path.resolve('rel/home'));
  });

  it('follows XDG and TMPDIR without A1_HOME', () => {
    const env = { XDG_CONFIG_HOME: path.join(tmp, 'cfg'), XDG_STATE_HOME: path.join(tmp, 'st'), TMPDIR: path.join(tmp, 't') };
    const p = resolvePaths({ env, uid: 1234, home: '/unused' });
    expect(p.a1Home).toBeNull();
    expect(p.configDir).toBe(path.join(tmp, 'cfg', 'a1'));
    expect(p.stateDir).toBe(path.join(tmp, 'st', 'a1', 'default'));
    expect(p.runDir).toBe(path.join(tmp, 't', 'a1-1234', 'default'));
    expect(p.serverSock).toBe(path.join(p.runDir, 'server.sock'));
  });

  it('falls back to ~/.config, ~/.local/state and /tmp, ignoring relative XDG values', () => {
    const env = { XDG_CONFIG_HOME: 'relative', XDG_STATE_HOME: '', TMPDIR: '' };
    const p = resolvePaths({ env, uid: 42, home: '/home/u', profile: 'x' });
    expect(p.configDir).toBe('/home/u/.config/a1');
    expect(p.stateDir).toBe('/home/u/.local/state/a1/x');
    expect(p.runDir).toBe('/tmp/a1-42/x');
  });

  it('refuses socket names that could escape the directory or be parsed ambiguously', () => {
    const p = resolvePaths({ env: { A1_HOME: tmp } });
    expect(() => p.holderSock('../x', 'i')).toThrow();
    expect(() => p.holderSock('a-b', 'i')).toThrow();
    expect(() => p.bridgeSock('a', 'i/j')).toThrow();
    expect(() => p.holderSock('t'.repeat(30), 'i'.repeat(10))).toThrow(/longer than/);
  });

  it('parses the socket names it makes, and nothing else', () => {
    const p = resolvePaths({ env: { A1_HOME: tmp } });
    expect(parseSocketName(path.basename(p.holderSock('tab_q2', 'abc7')))).toEqual({ kind: 'holder', tabId: 'tab_q2', incarnation: 'abc7' });
    expect(parseSocketName(path.basename(p.bridgeSock('tab_q2', 'abc7')))).toEqual({ kind: 'bridge', tabId: 'tab_q2', incarnation: 'abc7' });
    for (const other of ['server.sock', 'client.token', 'h-a-b-c.sock', 'h-a.sock', 'x-a-b.sock', 'h-a-b.sock.tmp']) {
      expect(parseSocketName(other)).toBeNull();
    }
  });
});

describe('socket path length', () => {
  const longHome = () => path.join(tmp, 'a-rather-long-directory-name-'.repeat(4));
  const uid = process.getuid?.() ?? 0;
  const hashOf = (runDir: string) => crypto.createHash('sha256').update(runDir).digest('hex').slice(0, 16);

  it('moves sockets to a hashed directory under TMPDIR when the run dir is too long', () => {
    const env = { A1_HOME: longHome(), TMPDIR: tmp };
    const p = resolvePaths({ env, profile: 'prof' });
    expect(p.socketDir).toBe(path.join(tmp, `a1-${uid}`, `s-${hashOf(p.runDir)}`));
    expect(p.serverSock).toBe(path.join(p.socketDir, 'server.sock'));
    expect(p.holderSock('tab_abcdefghij', 'klmnopqrst')).toBe(path.join(p.socketDir, 'h-tab_abcdefghij-klmnopqrst.sock'));
    // The client token is a file, not a socket: it stays in the run dir.
    expect(p.clientTokenFile).toBe(path.join(p.runDir, 'client.token'));
    // Every process computes the same place; another profile gets another one.
    expect(resolvePaths({ env, profile: 'prof' }).socketDir).toBe(p.socketDir);
    expect(resolvePaths({ env, profile: 'other' }).socketDir).not.toBe(p.socketDir);
  });

  it('uses /tmp when TMPDIR itself is too long', () => {
    const env = { A1_HOME: longHome(), TMPDIR: longHome() };
    const p = resolvePaths({ env });
    expect(p.socketDir).toBe(path.join('/tmp', `a1-${uid}`, `s-${hashOf(p.runDir)}`));
  });

  it('keeps every socket path under the limit and lets a server bind there', async () => {
    const env = { A1_HOME: longHome(), TMPDIR: tmp };
    const p = resolvePaths({ env });
    expect(Buffer.byteLength(path.join(p.runDir, 'h-tab_abcdefghij-klmnopqrst.sock'))).toBeGreaterThanOrEqual(SOCKET_PATH_MAX);
    const sock = p.holderSock('tab_abcdefghij', 'klmnopqrst');
    expect(Buffer.byteLength(sock)).toBeLessThan(SOCKET_PATH_MAX);
    ensureProfileDirs(p);
    expect(modeOf(p.socketDir)).toBe(0o700);
    expect(modeOf(path.dirname(p.socketDir))).toBe(0o700);
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(sock, resolve));
    try {
      const client = net.connect(sock);
      await new Promise<void>((resolve, reject) => client.once('error', reject).once('connect', resolve));
      client.destroy();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('ensurePrivateDir', () => {
  it('does not judge ordinary ancestors such as a sticky /tmp', () => {
    const sharedTmp = path.join(tmp, 'shared');
    fs.mkdirSync(sharedTmp);
    fs.chmodSync(sharedTmp, 0o1777);
    const p = resolvePaths({ env: { TMPDIR: sharedTmp, XDG_STATE_HOME: path.join(tmp, 'state') }, home: tmp });
    ensureProfileDirs(p);
    expect(modeOf(p.runDir)).toBe(0o700);
    expect(fs.statSync(sharedTmp).mode & 0o7777).toBe(0o1777);
  });

  it('refuses an existing world-writable directory of its own', () => {
    const p = resolvePaths({ env: { A1_HOME: tmp } });
    fs.mkdirSync(p.runDir, { recursive: true });
    fs.chmodSync(p.runDir, 0o777);
    expectUnsafe(() => ensureProfileDirs(p), p.runDir);
  });

  it('refuses a group-writable a1-<uid> parent', () => {
    const runTmp = path.join(tmp, 'run');
    const p = resolvePaths({ env: { TMPDIR: runTmp, XDG_STATE_HOME: path.join(tmp, 'state') }, home: tmp });
    const uidDir = path.dirname(p.runDir);
    fs.mkdirSync(uidDir, { recursive: true });
    fs.chmodSync(uidDir, 0o770);
    expectUnsafe(() => ensureProfileDirs(p), uidDir);
    expect(fs.existsSync(p.runDir)).toBe(false);
  });

  it('refuses a symbolic link in place of its directory', () => {
    const target = path.join(tmp, 'target');
    fs.mkdirSync(target, { mode: 0o700 });
    const dir = path.join(tmp, 'link');
    fs.symlinkSync(target, dir);
    expectUnsafe(() => ensurePrivateDir(dir), dir);
  });

  it('refuses a file in place of its directory', () => {
    const dir = path.join(tmp, 'file');
    fs.writeFileSync(dir, '');
    expectUnsafe(() => ensurePrivateDir(dir), dir);
  });

  // Files of another owner can only be made by root (chown); run as root in CI, skipped elsewhere.
  it.skipIf(!isRoot)('refuses a directory owned by another user', () => {
    const p = resolvePaths({ env: { A1_HOME: tmp } });
    fs.mkdirSync(p.stateDir, { recursive: true, mode: 0o700 });
    fs.chownSync(p.stateDir, NOBODY, NOBODY);
    expectUnsafe(() => ensureProfileDirs(p), p.stateDir);
  });

  it('tightens its own existing directory to 0700', () => {
    const dir = path.join(tmp, 'mine');
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o755);
    ensurePrivateDir(dir);
    expect(modeOf(dir)).toBe(0o700);
  });

  it('requires the root to be an ancestor', () => {
    expect(() => ensurePrivateDir(path.join(tmp, 'a'), path.join(tmp, 'b'))).toThrow(/not an ancestor/);
  });
});
