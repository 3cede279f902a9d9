// Where a profile's files live (SPEC §4), and the two primitives that keep them private:
// owner-only directories that refuse to be hijacked, and atomic owner-only files.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** sun_path is 104 bytes on macOS (108 on Linux), including the terminating NUL; the smaller wins. */
export const SOCKET_PATH_MAX = 104;
/** Room kept for a socket's file name: "h-" + tab id (14) + "-" + incarnation (10) + ".sock" is 32,
 * with headroom for longer ids. The socket directory is chosen so any name this long fits. */
export const SOCKET_NAME_MAX = 40;
/** Profile names become directory names; 64 keeps every derived path comfortably short. */
export const PROFILE_NAME_MAX = 64;
/** Hex digits of sha256(runDir) naming a fallback socket directory: 64 bits never collide in practice. */
const SOCKET_DIR_HASH_HEX = 16;
/** Short on every Unix, so sockets fit under it whatever TMPDIR says. */
const LAST_RESORT_TMP = '/tmp';

const PRIVATE_DIR_MODE = 0o700;
/** Owner-only: what a1 keeps about a user's sessions is nobody else's to read. */
export const PRIVATE_FILE_MODE = 0o600;
/** Group- or other-writable: someone else could swap what a1 finds there. */
const FOREIGN_WRITE_BITS = 0o022;

const PROFILE_NAME = /^[A-Za-z0-9._-]+$/;
/** Tab ids and incarnations are joined by '-' in socket names, so neither may contain one. */
const SOCKET_ID = /^[A-Za-z0-9_]+$/;

export class InvalidProfileError extends Error {
  readonly code = 'invalid-profile';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidProfileError';
  }
}

export class UnsafePathError extends Error {
  readonly code = 'unsafe-path';
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'UnsafePathError';
  }
}

/** A directory a1 keeps private, and the nearest ancestor that is not a1's (such as /tmp or
 * $XDG_STATE_HOME): everything below `root` down to `dir` is checked by ensurePrivateDir. */
export interface PrivateDir {
  dir: string;
  root: string;
}

export interface Paths {
  profile: string;
  /** A1_HOME made absolute, or null when unset; spawned processes should get this value. */
  a1Home: string | null;
  configDir: string;
  stateDir: string;
  runDir: string;
  /** Where sockets actually live: runDir, or a short hashed directory when runDir is too long. */
  socketDir: string;
  configFile: string;
  keybindingsFile: string;
  registryFile: string;
  backupsDir: string;
  logsDir: string;
  crashDir: string;
  recoveryDir: string;
  secretFile: string;
  serverSock: string;
  clientTokenFile: string;
  /** Every state and run directory a1 creates, parents first (the config dir is the user's). */
  privateDirs: PrivateDir[];
  holderSock(tabId: string, incarnation: string): string;
  bridgeSock(tabId: string, incarnation: string): string;
}

export interface ResolvePathsOptions {
  env: NodeJS.ProcessEnv;
  profile?: string;
  uid?: number;
  home?: string;
}

/** Throws InvalidProfileError unless `name` is usable as a profile (and so a directory) name. */
export function validateProfileName(name: string): string {
  if (
    name.length === 0 ||
    name.length > PROFILE_NAME_MAX ||
    !PROFILE_NAME.test(name) ||
    name === '.' ||
    name === '..'
  ) {
    throw new InvalidProfileError(
      `Profile name ${JSON.stringify(name)} is invalid: use 1 to ${PROFILE_NAME_MAX} letters, digits, '-', '_' or '.'.`,
    );
  }
  return name;
}

export function resolvePaths(opts: ResolvePathsOptions): Paths {
  const { env } = opts;
  const profile = validateProfileName(opts.profile ?? nonEmpty(env.A1_PROFILE) ?? 'default');
  const uid = opts.uid ?? process.getuid?.() ?? 0;
  const home = opts.home ?? nonEmpty(env.HOME) ?? os.homedir();
  const tmp = path.resolve(nonEmpty(env.TMPDIR) ?? '/tmp');
  const uidDirName = `a1-${uid}`;
  const a1HomeEnv = nonEmpty(env.A1_HOME);
  const a1Home = a1HomeEnv === undefined ? null : path.resolve(a1HomeEnv);

  let configDir: string;
  let stateDir: string;
  let runDir: string;
  let stateRoot: string;
  let runRoot: string;
  if (a1Home !== null) {
    configDir = path.join(a1Home, 'config');
    stateDir = path.join(a1Home, 'state', profile);
    runDir = path.join(a1Home, 'run', profile);
    stateRoot = runRoot = a1Home;
  } else {
    const configHome = xdgDir(env.XDG_CONFIG_HOME) ?? path.join(home, '.config');
    stateRoot = xdgDir(env.XDG_STATE_HOME) ?? path.join(home, '.local', 'state');
    configDir = path.join(configHome, 'a1');
    stateDir = path.join(stateRoot, 'a1', profile);
    runRoot = tmp;
    runDir = path.join(tmp, uidDirName, profile);
  }

  const socket = chooseSocketDir(runDir, runRoot, tmp, uidDirName);
  const privateDirs: PrivateDir[] = [
    { dir: stateDir, root: stateRoot },
    ...['backups', 'logs', 'crash', 'recovery'].map((name) => ({ dir: path.join(stateDir, name), root: stateRoot })),
    { dir: runDir, root: runRoot },
  ];
  if (socket.dir !== runDir) privateDirs.push(socket);

  const tabSock = (prefix: string, tabId: string, incarnation: string): string => {
    if (!SOCKET_ID.test(tabId) || !SOCKET_ID.test(incarnation)) {
      throw new Error(`Socket name parts must match ${SOCKET_ID}: ${JSON.stringify([tabId, incarnation])}.`);
    }
    const name = `${prefix}-${tabId}-${incarnation}.sock`;
    if (Buffer.byteLength(name) > SOCKET_NAME_MAX) {
      throw new Error(`Socket name ${name} is longer than ${SOCKET_NAME_MAX} bytes.`);
    }
    return path.join(socket.dir, name);
  };

  return {
    profile,
    a1Home,
    configDir,
    stateDir,
    runDir,
    socketDir: socket.dir,
    configFile: path.join(configDir, 'config.json'),
    keybindingsFile: path.join(configDir, 'keybindings.json'),
    registryFile: path.join(stateDir, 'registry.db'),
    backupsDir: path.join(stateDir, 'backups'),
    logsDir: path.join(stateDir, 'logs'),
    crashDir: path.join(stateDir, 'crash'),
    recoveryDir: path.join(stateDir, 'recovery'),
    secretFile: path.join(stateDir, 'secret'),
    serverSock: path.join(socket.dir, 'server.sock'),
    clientTokenFile: path.join(runDir, 'client.token'),
    privateDirs,
    holderSock: (tabId, incarnation) => tabSock('h', tabId, incarnation),
    bridgeSock: (tabId, incarnation) => tabSock('b', tabId, incarnation),
  };
}

/** The crash-record directory beside a logs directory: both are fixed children of the profile's
 * state directory (above), so a process told only where to log (a holder) finds it too. */
export function crashDirBesideLogs(logsDir: string): string {
  return path.join(path.dirname(logsDir), 'crash');
}

/** The inverse of holderSock/bridgeSock, for finding holders by the sockets they left (SPEC §15). */
export function parseSocketName(
  name: string,
): { kind: 'holder' | 'bridge'; tabId: string; incarnation: string } | null {
  const m = /^([hb])-([A-Za-z0-9_]+)-([A-Za-z0-9_]+)\.sock$/.exec(name);
  if (!m) return null;
  return { kind: m[1] === 'h' ? 'holder' : 'bridge', tabId: m[2], incarnation: m[3] };
}

/**
 * runDir when a socket name fits under it; otherwise a directory named by a hash of runDir (so
 * every process computes the same one) under the temp dir, or under /tmp when even that is too
 * long (macOS's per-user TMPDIR alone is ~50 bytes). /tmp/a1-<uid>/s-<hash> always fits.
 */
function chooseSocketDir(runDir: string, runRoot: string, tmp: string, uidDirName: string): PrivateDir {
  if (fitsSocketName(runDir)) return { dir: runDir, root: runRoot };
  const hash = crypto.createHash('sha256').update(runDir).digest('hex').slice(0, SOCKET_DIR_HASH_HEX);
  const underTmp = path.join(tmp, uidDirName, `s-${hash}`);
  if (fitsSocketName(underTmp)) return { dir: underTmp, root: tmp };
  return { dir: path.join(LAST_RESORT_TMP, uidDirName, `s-${hash}`), root: LAST_RESORT_TMP };
}

function fitsSocketName(dir: string): boolean {
  // +1 for the '/' before the name; < because the NUL terminator needs the last byte.
  return Buffer.byteLength(dir) + 1 + SOCKET_NAME_MAX < SOCKET_PATH_MAX;
}

/** The XDG base-directory spec says relative values are invalid and must be ignored. */
function xdgDir(value: string | undefined): string | undefined {
  return value !== undefined && path.isAbsolute(value) ? value : undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/**
 * mkdir -p `dir` with mode 0700 for everything created. Every directory below `root` down to
 * `dir` is a1's: if it already exists it must be a real directory (not a symlink) owned by this
 * user and not writable by group or others, else UnsafePathError. `root` and its ancestors are
 * the user's or the system's (/tmp, $HOME) and are not judged. `root` defaults to dir's parent.
 */
export function ensurePrivateDir(dir: string, root: string = path.dirname(dir)): void {
  const absDir = path.resolve(dir);
  const absRoot = path.resolve(root);
  const below = path.relative(absRoot, absDir);
  if (below === '..' || below.startsWith(`..${path.sep}`) || path.isAbsolute(below)) {
    throw new Error(`${absRoot} is not an ancestor of ${absDir}.`);
  }
  makeDirs(absRoot);
  let current = absRoot;
  for (const part of below.split(path.sep).filter((p) => p !== '')) {
    current = path.join(current, part);
    try {
      fs.mkdirSync(current, { mode: PRIVATE_DIR_MODE });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    checkOwnDir(current);
  }
}

/** Creates every directory a profile's processes use (see Paths.privateDirs). */
export function ensureProfileDirs(paths: Paths): void {
  for (const { dir, root } of paths.privateDirs) ensurePrivateDir(dir, root);
}

/** mkdir -p for the user's own ancestors: created ones get 0700 too, existing ones are left alone. */
function makeDirs(dir: string): void {
  const first = fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first === undefined) return;
  for (let d = dir; ; d = path.dirname(d)) {
    fs.chmodSync(d, PRIVATE_DIR_MODE);
    if (d === first) break;
  }
}

function checkOwnDir(dir: string): void {
  const st = fs.lstatSync(dir);
  const uid = process.getuid?.();
  const refuse = (why: string): never => {
    throw new UnsafePathError(`Refusing to use ${dir}: ${why}.`, dir);
  };
  if (st.isSymbolicLink()) refuse('it is a symbolic link');
  if (!st.isDirectory()) refuse('it is not a directory');
  if (uid !== undefined && st.uid !== uid) refuse(`it is owned by uid ${st.uid}, not ${uid}`);
  if ((st.mode & FOREIGN_WRITE_BITS) !== 0) refuse('it is writable by group or others');
  // The umask may have left it short of 0700, or an older tool or a person opened it up to
  // readers: it is ours and safe, so make it exactly owner-only.
  if ((st.mode & 0o777) !== PRIVATE_DIR_MODE) fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Where a1's command shims live beside its entry (bin/a1 → bin/shims): the first directory on a
 * tab's PATH (src/holder/childEnvironment.ts, bin/shims/codex). */
export function shimDirOf(entry: string): string {
  return path.join(path.dirname(entry), 'shims');
}
