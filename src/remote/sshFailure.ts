// Why a link attempt failed, as one sentence a person can act on (issue 30, memo §2). ssh exits
// with the remote command's status, or 255 on an error of its own (ssh(1) EXIT STATUS); its
// messages below are OpenSSH 9.2's. A sentence never quotes ssh's stderr, which may carry
// whatever the remote printed, except the last line in the `ssh-error` fallback, cleaned.
import { MAX_BANNER_JUNK_BYTES } from './banner.js';
import { LAUNCHER_MARKERS, LAUNCHER_NOT_FOUND_EXIT, LAUNCHER_PREFIX } from './launcher.js';
import { checkSshOption, type HostDefinition } from './sshArgs.js';
import { shellWord } from './shellWords.js';

/** What a host's state becomes: a person must act (attention), a1 retries by itself
 * (unreachable), or the two a1s cannot talk until one is updated (incompatible). */
export type FailureState = 'attention' | 'unreachable' | 'incompatible';

export type FailureCode =
  | 'host-key-unknown' | 'host-key-changed' | 'auth' | 'no-a1' | 'no-node' | 'no-ssh' | 'login-noise'
  | 'dns' | 'refused' | 'no-route' | 'timeout' | 'lost' | 'mux-refused' | 'ssh-error'
  | 'too-old' | 'generation' | 'server-generation';

export interface LinkFailure {
  code: FailureCode;
  state: FailureState;
  sentence: string;
  /** For attention: the command the person runs, when one does it. */
  command: string | null;
}

/** How the link's ssh ended. */
export interface SshOutcome {
  exitCode: number | null;
  signal: string | null;
  /** The entry's banner arrived: the link was up, so any ending is a loss. */
  bannerSeen: boolean;
  /** The last part of ssh's stderr (the link keeps 16 KiB). */
  stderrTail: string;
  /** The spawn's error code (ENOENT: no ssh), when ssh never started. */
  spawnErrorCode: string | null;
  /** a1 ended the attempt at its own deadline. */
  timedOut?: boolean;
}

/** What the sentences name: the host, and where ssh connects (from `ssh -G`, sshConfig.ts). */
export interface FailureContext {
  host: HostDefinition;
  hostname?: string;
  port?: number;
  connectTimeoutS?: number;
}

/** Facts a few sentences carry; each comes from a1's own markers or probes, never ssh's text. */
export interface FailureDetail {
  /** auth: the methods the server offered. */
  methods?: readonly string[];
  /** dns, no-route: the reason, one of the fixed phrases below. */
  reason?: string;
  /** no-node: the a1 found there; too-old: the version there. */
  path?: string;
  version?: string;
  /** generation: the peer's and this side's generations. */
  remoteGen?: number;
  localGen?: number;
  /** ssh-error: what ssh said or how it ended. */
  what?: string;
}

/** A line of ssh's shown in the fallback sentence is at most this long. */
const MAX_SHOWN_CHARS = 200;
const SSH_OWN_ERROR_EXIT = 255;
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/g;

type Parts = FailureContext & FailureDetail;
interface FailureKind {
  state: FailureState;
  sentence: (p: Parts) => string;
  command?: (p: Parts) => string | null;
}

const where = (p: Parts): string => p.hostname ?? p.host.target;
const whereAndPort = (p: Parts): string => (p.port === undefined ? where(p) : `${where(p)}:${p.port}`);
/** The ssh a person runs to do once what BatchMode would not: the user's options, this target. */
const sshCommand = (p: Parts): string => ['ssh', ...p.host.sshOptions.filter((o) => checkSshOption(o).ok).flatMap((o) => ['-o', shellWord(o)]), shellWord(p.host.target)].join(' ');
/** known_hosts names a host on a port other than 22 as [host]:port. */
const knownHostsName = (p: Parts): string => (p.port === undefined || p.port === 22 ? where(p) : `[${where(p)}]:${p.port}`);
const offersKeys = (p: Parts): boolean => p.methods === undefined || p.methods.includes('publickey');

const FAILURES: Readonly<Record<FailureCode, FailureKind>> = {
  'host-key-unknown': {
    state: 'attention',
    sentence: (p) => `${p.host.name}'s host key is not known here yet: run "${sshCommand(p)} true" once and accept it.`,
    command: (p) => `${sshCommand(p)} true`,
  },
  'host-key-changed': {
    state: 'attention',
    sentence: (p) => `${p.host.name}'s host key changed: if you expect that, run "ssh-keygen -R ${shellWord(knownHostsName(p))}", then "${sshCommand(p)} true".`,
    command: (p) => `ssh-keygen -R ${shellWord(knownHostsName(p))}`,
  },
  auth: {
    state: 'attention',
    sentence: (p) =>
      offersKeys(p)
        ? `ssh could not log in to ${p.host.target} without a prompt: load your key with "ssh-add", or install one with "ssh-copy-id ${shellWord(p.host.target)}".`
        : `${p.host.target} accepts only password logins, which a1 cannot type: set up a key login there.`,
    command: (p) => (offersKeys(p) ? 'ssh-add' : null),
  },
  'no-a1': {
    state: 'attention',
    sentence: (p) => `a1 is not installed on ${p.host.name} for non-interactive logins: install it there ("npm install -g a1") or pass --a1-path.`,
  },
  'no-node': {
    state: 'attention',
    sentence: (p) => `a1 is at ${p.path} on ${p.host.name} but node is not on its PATH: pass --a1-path "/path/to/node ${p.path}".`,
  },
  'no-ssh': { state: 'attention', sentence: () => "a1 needs OpenSSH's ssh on this machine's PATH." },
  'login-noise': {
    state: 'attention',
    sentence: (p) => `the login on ${p.host.name} prints more than ${MAX_BANNER_JUNK_BYTES / 1024} KiB before a1 can start: quiet its shell startup files for non-interactive logins.`,
  },
  dns: { state: 'unreachable', sentence: (p) => `${where(p)} does not resolve${p.reason ? ` (${p.reason})` : ''}.` },
  refused: { state: 'unreachable', sentence: (p) => `nothing answers ssh at ${whereAndPort(p)} (connection refused).` },
  'no-route': { state: 'unreachable', sentence: (p) => `${whereAndPort(p)} cannot be reached from here (${p.reason}).` },
  timeout: {
    state: 'unreachable',
    sentence: (p) => `${where(p)} did not answer ${p.connectTimeoutS === undefined ? 'in time' : `within ${p.connectTimeoutS} s`}.`,
  },
  lost: { state: 'unreachable', sentence: (p) => `the connection to ${where(p)} stopped answering.` },
  'mux-refused': { state: 'unreachable', sentence: (p) => `${p.host.name} refused another session on the shared connection (sshd MaxSessions).` },
  'ssh-error': { state: 'unreachable', sentence: (p) => `ssh failed: ${p.what}` },
  'too-old': {
    state: 'incompatible',
    sentence: (p) => `the a1 on ${p.host.name}${p.version ? ` (${p.version})` : ''} cannot serve another machine: upgrade it there.`,
  },
  generation: {
    state: 'incompatible',
    sentence: (p) => `a1 on ${p.host.name} speaks protocol generation ${p.remoteGen}, this a1 ${p.localGen}: update the older one.`,
  },
  'server-generation': {
    state: 'incompatible',
    sentence: (p) => `the a1 server running on ${p.host.name} is another version: run "a1 tabs host stop" there.`,
  },
};

/** The failure of `code` for this host, with the facts its sentence needs. Text from the remote
 * (a path, a version, ssh's line) is cleaned first. */
export function describeFailure(code: FailureCode, context: FailureContext, detail: FailureDetail = {}): LinkFailure {
  const kind = FAILURES[code];
  const clean = { ...detail, path: shown(detail.path), version: shown(detail.version), what: shown(detail.what) };
  const parts = { ...context, ...clean };
  return { code, state: kind.state, sentence: kind.sentence(parts), command: kind.command?.(parts) ?? null };
}

/** Name-resolution reasons shown as they are: getaddrinfo's fixed texts, never the rest of a line. */
const RESOLVE_REASONS = ['Name or service not known', 'Temporary failure in name resolution', 'No address associated with hostname', 'nodename nor servname provided, or not known'];
const CONNECT_REASONS: Readonly<Record<string, FailureCode>> = {
  'Connection refused': 'refused',
  'No route to host': 'no-route',
  'Network is unreachable': 'no-route',
  'Connection timed out': 'timeout',
  'Operation timed out': 'timeout',
};

/** ssh's own errors, matched a line at a time, first match wins (a changed host key also prints
 * the unknown key's fatal line, so it comes first). */
const SSH_LINES: readonly [RegExp, (m: RegExpExecArray) => [FailureCode, FailureDetail] | null][] = [
  [/^@+\s+WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!/, () => ['host-key-changed', {}]],
  [/^Host key verification failed\.$/, () => ['host-key-unknown', {}]],
  [/^\S+: Permission denied \(([^)]*)\)\.$/, (m) => ['auth', { methods: m[1].split(',') }]],
  [/^ssh: Could not resolve hostname .*: (.*?)\.?$/, (m) => ['dns', { reason: RESOLVE_REASONS.includes(m[1]) ? m[1].toLowerCase() : undefined }]],
  [/^ssh: connect to host .* port \d+: (.*)$/, (m) => (Object.hasOwn(CONNECT_REASONS, m[1]) ? [CONNECT_REASONS[m[1]], { reason: m[1].toLowerCase() }] : null)],
  [/timed out during banner exchange$|^Connection to .* timed out/, () => ['timeout', {}]],
  [/^mux_client_request_session: session request failed: /, () => ['mux-refused', {}]],
  [/^Timeout, server .* not responding\.$|^Connection (closed|reset) by |^client_loop: send disconnect: Broken pipe$/, () => ['lost', {}]],
];

/** The failure an ended attempt shows, from how its ssh ended. */
export function classifySshExit(outcome: SshOutcome, context: FailureContext): LinkFailure {
  const [code, detail] = failureOf(outcome);
  return describeFailure(code, context, detail);
}

function failureOf(o: SshOutcome): [FailureCode, FailureDetail] {
  if (o.spawnErrorCode === 'ENOENT') return ['no-ssh', {}];
  if (o.spawnErrorCode) return ['ssh-error', { what: `ssh could not be started (${o.spawnErrorCode}).` }];
  if (o.timedOut) return ['timeout', {}];
  if (o.bannerSeen) return ['lost', {}];
  const lines = o.stderrTail.split(/\r?\n/);
  const marker = (name: string): string | undefined => lines.find((l) => l.startsWith(LAUNCHER_PREFIX + name))?.slice(LAUNCHER_PREFIX.length + name.length);
  const notFound = o.exitCode === LAUNCHER_NOT_FOUND_EXIT;
  if (notFound && marker(LAUNCHER_MARKERS.noA1) !== undefined) return ['no-a1', {}];
  const nodeless = marker(LAUNCHER_MARKERS.noNode);
  if (notFound && nodeless !== undefined) return ['no-node', { path: nodeless }];
  if (marker(LAUNCHER_MARKERS.exec) !== undefined) {
    // An --a1-path the remote shell cannot find ends as "…: not found", status 127; any a1 that
    // ran and wrote no banner does not know `__remote`.
    return notFound && lines.some((l) => /not found/i.test(l)) ? ['no-a1', {}] : ['too-old', {}];
  }
  if (o.exitCode === SSH_OWN_ERROR_EXIT) {
    for (const line of lines) {
      for (const [pattern, read] of SSH_LINES) {
        const match = pattern.exec(line);
        const found = match && read(match);
        if (found) return found;
      }
    }
  }
  if (o.signal !== null) return ['lost', {}];
  const last = lines.map((l) => l.replace(CONTROL_CHARS, '').trim()).filter((l) => l.length > 0).at(-1);
  return ['ssh-error', { what: last ?? `ssh ended with ${o.exitCode === null ? 'no exit code' : `exit code ${o.exitCode}`} before a1 answered.` }];
}

/** Remote text as a sentence may carry it: no control characters, at most MAX_SHOWN_CHARS. */
function shown(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const chars = Array.from(text.replace(CONTROL_CHARS, '').trim());
  return chars.length > MAX_SHOWN_CHARS ? `${chars.slice(0, MAX_SHOWN_CHARS - 1).join('')}…` : chars.join('');
}
