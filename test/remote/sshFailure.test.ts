import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propertyRuns } from '../helpers/runs.js';
import type { HostDefinition } from '../../src/remote/sshArgs.js';
import { classifySshExit, describeFailure, type FailureContext, type LinkFailure, type SshOutcome } from '../../src/remote/sshFailure.js';

const host: HostDefinition = { name: 'gpu', target: 'me@gpu.lan', sshOptions: ['Port=2222', 'ProxyJump=jump host'] };
const context: FailureContext = { host, hostname: 'gpu.lan', port: 2222, connectTimeoutS: 10 };

function exit(exitCode: number | null, stderr: string, more: Partial<SshOutcome> = {}): LinkFailure {
  return classifySshExit({ exitCode, signal: null, bannerSeen: false, stderrTail: stderr, spawnErrorCode: null, ...more }, context);
}

const CHANGED_KEY = [
  '@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@',
  '@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @',
  '@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@',
  'IT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!',
  'Someone could be eavesdropping on you right now (man-in-the-middle attack)!',
  'It is also possible that a host key has just been changed.',
  'Offending ED25519 key in /root/.ssh/known_hosts:3',
  '  remove with:',
  '  ssh-keygen -f "/root/.ssh/known_hosts" -R "[gpu.lan]:2222"',
  'Host key for [gpu.lan]:2222 has changed and you have requested strict checking.',
  'Host key verification failed.',
  '',
].join('\n');

const SSH = "ssh -o Port=2222 -o 'ProxyJump=jump host' me@gpu.lan";

type Want = Omit<LinkFailure, 'command'> & { command?: string | null };

/** The failures several of ssh's messages lead to, each worded once. */
const UNKNOWN_KEY: Want = { code: 'host-key-unknown', state: 'attention', sentence: `gpu's host key is not known here yet: run "${SSH} true" once and accept it.`, command: `${SSH} true` };
const NO_KEY: Want = { code: 'auth', state: 'attention', sentence: 'ssh could not log in to me@gpu.lan without a prompt: load your key with "ssh-add", or install one with "ssh-copy-id me@gpu.lan".', command: 'ssh-add' };
const TIMEOUT: Want = { code: 'timeout', state: 'unreachable', sentence: 'gpu.lan did not answer within 10 s.' };
const LOST: Want = { code: 'lost', state: 'unreachable', sentence: 'the connection to gpu.lan stopped answering.' };
const NO_A1: Want = { code: 'no-a1', state: 'attention', sentence: 'a1 is not installed on gpu for non-interactive logins: install it there ("npm install -g a1") or pass --a1-path.' };
const noRoute = (reason: string): Want => ({ code: 'no-route', state: 'unreachable', sentence: `gpu.lan:2222 cannot be reached from here (${reason}).` });
const dns = (reason: string): Want => ({ code: 'dns', state: 'unreachable', sentence: `gpu.lan does not resolve (${reason}).` });
const sshError = (what: string): Want => ({ code: 'ssh-error', state: 'unreachable', sentence: `ssh failed: ${what}` });

/** OpenSSH 9.2's own words (memo §2) and the launcher's markers, each with the failure a1 shows. */
const TABLE: [string, number | null, string, Want][] = [
  ['unknown host key', 255, 'Host key verification failed.\n', UNKNOWN_KEY],
  ['unknown host key, strict checking', 255, 'No ED25519 host key is known for [gpu.lan]:2222 and you have requested strict checking.\nHost key verification failed.\n', UNKNOWN_KEY],
  ['changed host key', 255, CHANGED_KEY, { code: 'host-key-changed', state: 'attention', sentence: `gpu's host key changed: if you expect that, run "ssh-keygen -R '[gpu.lan]:2222'", then "${SSH} true".`, command: "ssh-keygen -R '[gpu.lan]:2222'" }],
  ['no key', 255, 'me@gpu.lan: Permission denied (publickey).\n', NO_KEY],
  ['no key, passwords offered too', 255, 'me@gpu.lan: Permission denied (publickey,password).\n', NO_KEY],
  ['passwords only', 255, 'me@gpu.lan: Permission denied (password,keyboard-interactive).\n', { code: 'auth', state: 'attention', sentence: 'me@gpu.lan accepts only password logins, which a1 cannot type: set up a key login there.' }],
  ['unknown name', 255, 'ssh: Could not resolve hostname gpu.lan: Name or service not known\n', dns('name or service not known')],
  ['no DNS now', 255, 'ssh: Could not resolve hostname gpu.lan: Temporary failure in name resolution\n', dns('temporary failure in name resolution')],
  ['refused', 255, 'ssh: connect to host gpu.lan port 2222: Connection refused\n', { code: 'refused', state: 'unreachable', sentence: 'nothing answers ssh at gpu.lan:2222 (connection refused).' }],
  ['no route', 255, 'ssh: connect to host gpu.lan port 2222: No route to host\n', noRoute('no route to host')],
  ['no network', 255, 'ssh: connect to host gpu.lan port 2222: Network is unreachable\n', noRoute('network is unreachable')],
  ['connect timeout', 255, 'ssh: connect to host gpu.lan port 2222: Connection timed out\n', TIMEOUT],
  ['banner timeout', 255, 'Connection timed out during banner exchange\nConnection to 192.0.2.7 port 2222 timed out\n', TIMEOUT],
  ['keepalive', 255, 'Timeout, server gpu.lan not responding.\n', LOST],
  ['closed', 255, 'kex_exchange_identification: Connection closed by remote host\nConnection closed by 192.0.2.7 port 2222\n', LOST],
  ['reset', 255, 'Connection reset by 192.0.2.7 port 2222\n', LOST],
  ['MaxSessions', 255, 'mux_client_request_session: session request failed: Session open refused by peer\n', { code: 'mux-refused', state: 'unreachable', sentence: 'gpu refused another session on the shared connection (sshd MaxSessions).' }],
  ['no a1', 127, 'a1-remote: no-a1\n', NO_A1],
  ['--a1-path not found', 127, 'a1-remote: exec /opt/a1/bin/a1\nsh: 1: exec: /opt/a1/bin/a1: not found\n', NO_A1],
  ['no node', 127, 'a1-remote: no-node /home/me/.local/bin/a1\n', { code: 'no-node', state: 'attention', sentence: 'a1 is at /home/me/.local/bin/a1 on gpu but node is not on its PATH: pass --a1-path "/path/to/node /home/me/.local/bin/a1".' }],
  ['an a1 without __remote', 1, 'a1-remote: exec /usr/local/bin/a1\nUnknown command: __remote\n', { code: 'too-old', state: 'incompatible', sentence: 'the a1 on gpu cannot serve another machine: upgrade it there.' }],
  ['something new', 255, 'debug1: x\nsome error OpenSSH 11 adds\x1b[31m\n\n', sshError('some error OpenSSH 11 adds[31m')],
  ['a login that refuses', 1, 'This account is currently not available.\n', sshError('This account is currently not available.')],
  ['nothing said', 255, '', sshError('ssh ended with exit code 255 before a1 answered.')],
];

describe('classifying how a link attempt ended', () => {
  it.each(TABLE)('%s', (_what, code, stderr, want) => {
    expect(exit(code, stderr)).toEqual({ command: null, ...want });
  });

  it('reads ssh errors only from ssh itself (exit 255), not from what the remote printed', () => {
    expect(exit(1, 'me@gpu.lan: Permission denied (publickey).\n').code).toBe('ssh-error');
  });

  it('calls any end after the banner a lost link, and an attempt a1 ended at its deadline a timeout', () => {
    expect(exit(255, 'Connection reset by 192.0.2.7 port 2222\n', { bannerSeen: true }).code).toBe('lost');
    expect(exit(0, '', { bannerSeen: true }).code).toBe('lost');
    expect(exit(null, '', { signal: 'SIGKILL' }).code).toBe('lost');
    expect(exit(null, '', { signal: 'SIGTERM', timedOut: true })).toMatchObject({ code: 'timeout', sentence: 'gpu.lan did not answer within 10 s.' });
    expect(classifySshExit({ exitCode: null, signal: 'SIGKILL', bannerSeen: false, stderrTail: '', spawnErrorCode: null, timedOut: true }, { host }).sentence).toBe('me@gpu.lan did not answer in time.');
  });

  it('says when there is no ssh to run', () => {
    expect(exit(null, '', { spawnErrorCode: 'ENOENT' })).toEqual({ code: 'no-ssh', state: 'attention', sentence: "a1 needs OpenSSH's ssh on this machine's PATH.", command: null });
    expect(exit(null, '', { spawnErrorCode: 'EACCES' })).toMatchObject({ code: 'ssh-error', sentence: 'ssh failed: ssh could not be started (EACCES).' });
  });

  it('shows at most 200 characters of the fallback line', () => {
    const { sentence } = exit(255, `${'x'.repeat(500)}\n`);
    expect(sentence).toBe(`ssh failed: ${'x'.repeat(199)}…`);
  });

  it('never quotes ssh\'s stderr in any sentence but the fallback', () => {
    const secret = 'hunter2-token';
    const known = TABLE.filter(([, , , want]) => want.code !== 'ssh-error');
    fc.assert(
      fc.property(fc.constantFrom(...known), fc.nat(), ([, code, stderr, want], at) => {
        const lines = stderr.split('\n');
        lines.splice(at % lines.length, 0, `remote says ${secret}`);
        const failure = exit(code, lines.join('\n'));
        expect(failure.code).toBe(want.code);
        expect(failure.sentence).not.toContain(secret);
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});

describe('failures the link decides itself', () => {
  it('words each with what it knows', () => {
    expect(describeFailure('generation', context, { remoteGen: 2, localGen: 1 })).toEqual({ code: 'generation', state: 'incompatible', sentence: 'a1 on gpu speaks protocol generation 2, this a1 1: update the older one.', command: null });
    expect(describeFailure('server-generation', context).sentence).toBe('the a1 server running on gpu is another version: run "a1 tabs host stop" there.');
    expect(describeFailure('too-old', context, { version: '0.0.9\x1b[2J' }).sentence).toBe('the a1 on gpu (0.0.9[2J) cannot serve another machine: upgrade it there.');
    expect(describeFailure('login-noise', context)).toMatchObject({ state: 'attention', sentence: 'the login on gpu prints more than 64 KiB before a1 can start: quiet its shell startup files for non-interactive logins.' });
    expect(describeFailure('lost', context).sentence).toBe('the connection to gpu.lan stopped answering.');
  });

  it('names the target where ssh -G was not read, and the default port bare', () => {
    expect(describeFailure('refused', { host }).sentence).toBe('nothing answers ssh at me@gpu.lan (connection refused).');
    expect(describeFailure('host-key-changed', { host, hostname: 'gpu.lan', port: 22 }).command).toBe('ssh-keygen -R gpu.lan');
  });
});
