// Another local user connects (SPEC §4): a temporary OS user runs a probe against the profile's
// server socket and a holder's socket. With a1's modes (0700 directories) the kernel refuses it
// (EACCES). With the modes opened on purpose (directories 0755, sockets 0666) the endpoints still
// refuse it themselves: it cannot read the client token, its forged proof is rejected at the
// handshake, the request it sends after is never served, and nothing changes.
import { execFile, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { e2e, listing, logEntries, stateDir, waitForListing, type E2E } from './harness.js';
import { readDiskRegistry } from './serverProcess.js';
import { resolvePaths } from '../../src/paths.js';
import { encodeFrame, FrameDecoder } from '../../src/protocol/frame.js';
import { handshakeSchema, PROTOCOL_GENERATION } from '../../src/protocol/handshake.js';

/** What the probe does, as the other user: read the token, connect, answer the hello with one
 * frame, and report what it got. Plain Node, no a1 code: the user may read nothing of ours. */
const PROBE = `
import fs from 'node:fs';
import net from 'node:net';
const [sock, tokenFile, frameHex] = process.argv.slice(2);
const out = { uid: process.getuid(), token: 'read', connect: null, received: '', closed: false };
try { fs.readFileSync(tokenFile); } catch (e) { out.token = e.code; }
const chunks = [];
const finish = () => { out.received = Buffer.concat(chunks).toString('hex'); console.log(JSON.stringify(out)); process.exit(0); };
const s = net.connect(sock);
s.on('connect', () => { out.connect = 'ok'; });
s.on('error', (e) => { if (out.connect === null) out.connect = e.code; else out.closed = true; finish(); });
s.once('data', () => s.write(Buffer.from(frameHex, 'hex')));
s.on('data', (c) => chunks.push(c));
s.on('close', () => { out.closed = true; finish(); });
setTimeout(finish, 10000);
`;

interface ProbeResult {
  uid: number;
  token: string;
  connect: string | null;
  received: string;
  /** The endpoint ended the connection (a reset or an EPIPE on the request counts too). */
  closed: boolean;
}

const isRoot = process.getuid?.() === 0;
let t: E2E | undefined;
let user: string | null = null;
let probeDir: string | null = null;

afterEach(async () => {
  await t?.teardown();
  t = undefined;
  if (user) execFileSync('userdel', [user]);
  user = null;
  if (probeDir) fs.rmSync(probeDir, { recursive: true, force: true });
  probeDir = null;
});

/** A forged auth for `role`: a random proof (the token is unreadable) for a random nonce, in hex. */
function forgedAuth(role: string): string {
  const auth = { t: 'auth', gen: PROTOCOL_GENERATION, role, proof: crypto.randomBytes(32), nonce: crypto.randomBytes(32), methods: [] };
  return encodeFrame(auth).toString('hex');
}

/** A message as a frame in hex. */
function frame(msg: object): string {
  return encodeFrame(msg).toString('hex');
}

/** Runs the probe as the other user against `sock`. */
function probe(sock: string, tokenFile: string, frameHex: string): Promise<ProbeResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'runuser',
      ['-u', user!, '--', process.execPath, path.join(probeDir!, 'probe.mjs'), sock, tokenFile, frameHex],
      { cwd: probeDir!, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, timeout: 30_000 },
      (err, stdout, stderr) => (err ? reject(new Error(`probe failed: ${err.message} ${stderr}`)) : resolve(JSON.parse(stdout) as ProbeResult)),
    );
  });
}

/** The handshake messages the probe received, by type. */
function receivedTypes(r: ProbeResult): { t: string; code?: string }[] {
  const results = new FrameDecoder(handshakeSchema).push(Buffer.from(r.received, 'hex'));
  return results.map((x) => (x.ok ? { t: x.msg.t, ...(x.msg.t === 'reject' ? { code: (x.msg as unknown as { code: string }).code } : {}) } : { t: 'undecodable' }));
}

/** The tab's holder socket, from the incarnation the registry records. */
function holderSocket(e: E2E, tabId: string): string {
  const db = new Database(path.join(stateDir(e), 'registry.db'), { readonly: true });
  const { inc } = db.prepare('SELECT holder_inc AS inc FROM tabs WHERE id = ?').get(tabId) as { inc: string };
  db.close();
  return resolvePaths({ env: e.env }).holderSock(tabId, inc);
}

/** Every directory from the test's A1_HOME down to `dir`. */
function dirsDownTo(home: string, dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; d.startsWith(home); d = path.dirname(d)) out.unshift(d);
  return out;
}

// Creating an OS user needs root; CI runs as root, so this runs there. Elsewhere it is skipped,
// not faked: only a real second uid shows what the kernel and the endpoints refuse.
describe.skipIf(!isRoot)('another local user', () => {
  it('is refused by the kernel under a1\'s modes, and by the endpoints themselves with the modes opened: no token, no handshake, nothing served', async () => {
    t = e2e();
    const made = await t.run('new', '--name', 'a');
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();
    const before = await waitForListing(t, ['a']);
    const registryBefore = readDiskRegistry(t);
    const paths = resolvePaths({ env: t.env });
    const holderSock = holderSocket(t, id);

    user = `a1p${crypto.randomBytes(4).toString('hex')}`;
    execFileSync('useradd', ['--no-create-home', '--shell', '/usr/sbin/nologin', user]);
    probeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1probe-'));
    fs.chmodSync(probeDir, 0o755);
    fs.writeFileSync(path.join(probeDir, 'probe.mjs'), PROBE, { mode: 0o644 });
    // Each endpoint gets a forged proof, and a command in place of one: served, the commands
    // would stop the host and restart the tab's child.
    const tries = [
      { sock: paths.serverSock, who: 'server', frame: forgedAuth('client'), refusal: 'auth' },
      { sock: paths.serverSock, who: 'server', frame: frame({ t: 'request', id: 1, op: 'hostStop', args: {} }), refusal: 'handshake' },
      { sock: holderSock, who: `holder-${id}`, frame: forgedAuth('server'), refusal: 'auth' },
      { sock: holderSock, who: `holder-${id}`, frame: frame({ t: 'restartChild', epoch: before.server!.epoch + 1, fresh: true, force: true }), refusal: 'handshake' },
    ];
    const refusals = () => logEntries(t!, /./).filter((l) => l.event === 'client-handshake-refused' || l.event === 'handshake-refused');

    // a1's own modes: the kernel refuses the path before any endpoint sees a byte.
    for (const { sock, frame: sent } of tries) {
      const r = await probe(sock, paths.clientTokenFile, sent);
      expect(r.uid).not.toBe(0);
      expect(r).toMatchObject({ token: 'EACCES', connect: 'EACCES', received: '' });
    }
    expect(refusals()).toEqual([]);

    // Opened on purpose: every directory down to the sockets 0755, the sockets 0666. The client
    // token stays 0600, as a1 wrote it.
    for (const dir of new Set([...dirsDownTo(t.home.dir, paths.runDir), ...dirsDownTo(t.home.dir, paths.socketDir)])) fs.chmodSync(dir, 0o755);
    for (const sock of [paths.serverSock, holderSock]) fs.chmodSync(sock, 0o666);
    for (const { sock, frame: sent, refusal } of tries) {
      const r = await probe(sock, paths.clientTokenFile, sent);
      expect(r).toMatchObject({ token: 'EACCES', connect: 'ok', closed: true });
      // The endpoint's hello, then its refusal; nothing else came back.
      expect(receivedTypes(r)).toEqual([{ t: 'hello' }, { t: 'reject', code: refusal }]);
    }
    // One refusal logged per try, by the endpoint tried (logs are files per role: compared as sets).
    const logged = refusals().map((l) => `${l.role} ${String(l.code)}`).sort();
    expect(logged).toEqual(tries.map((x) => `${x.who} ${x.refusal}`).sort());

    // Nothing was served: the same server, holder and child, the registry as it was.
    const after = await listing(t);
    expect(after).toEqual(before);
    expect(readDiskRegistry(t)).toEqual(registryBefore);
  });
});
