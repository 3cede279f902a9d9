import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import fc from 'fast-check';
import { pack, unpack } from 'msgpackr';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CREDENTIAL_BYTES,
  CredentialError,
  TICKET_TTL_MS,
  UsedTickets,
  deriveKey,
  loadOrCreateClientToken,
  loadOrCreateSecret,
  makeTicket,
  newId,
  newIncarnation,
  readClientToken,
  verifyTicket,
  type CredentialRole,
  type Ticket,
} from '../src/security.js';
import { parseSocketName, resolvePaths } from '../src/paths.js';
import { killTracked, track } from './helpers/procs.js';
import { waitFor } from './helpers/wait.js';

const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;
const SECURITY_SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'security.ts');
/** The race starts 24 node processes: about 5 s on an idle machine, several times that on a busy one. */
const RACE_TIMEOUT_MS = 120_000;

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-sec-'));
});
afterEach(() => {
  killTracked();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function credentialError(fn: () => unknown): CredentialError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CredentialError);
    return error as CredentialError;
  }
  throw new Error('expected a CredentialError');
}

describe('credential files', () => {
  it('creates a 32-byte 0600 secret once and loads the same one after', () => {
    const file = path.join(tmp, 'secret');
    const first = loadOrCreateSecret(file);
    expect(first.length).toBe(CREDENTIAL_BYTES);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadOrCreateSecret(file).equals(first)).toBe(true);
    expect(fs.readdirSync(tmp)).toEqual(['secret']);
  });

  it('creates distinct client tokens and reads them back', () => {
    const file = path.join(tmp, 'client.token');
    expect(readClientToken(file)).toBeNull();
    const token = loadOrCreateClientToken(file);
    expect(readClientToken(file)?.equals(token)).toBe(true);
    expect(token.equals(loadOrCreateSecret(path.join(tmp, 'secret')))).toBe(false);
  });

  it('refuses a credential readable by others', () => {
    const file = path.join(tmp, 'secret');
    loadOrCreateSecret(file);
    fs.chmodSync(file, 0o644);
    const error = credentialError(() => loadOrCreateSecret(file));
    expect(error.code).toBe('credential-unsafe');
    expect(error.message).toBe(`Refusing to use ${file}: its mode is 0644, not 0600.`);
    expect(credentialError(() => readClientToken(file)).code).toBe('credential-unsafe');
  });

  it('refuses a symbolic link', () => {
    const real = path.join(tmp, 'real');
    loadOrCreateSecret(real);
    const link = path.join(tmp, 'secret');
    fs.symlinkSync(real, link);
    const error = credentialError(() => loadOrCreateSecret(link));
    expect(error.code).toBe('credential-unsafe');
    expect(error.message).toContain('symbolic link');
  });

  // Files of another owner can only be made by root (chown); run as root in CI, skipped elsewhere.
  it.skipIf(!isRoot)('refuses a credential owned by another user', () => {
    const file = path.join(tmp, 'secret');
    loadOrCreateSecret(file);
    fs.chownSync(file, NOBODY, NOBODY);
    const error = credentialError(() => loadOrCreateSecret(file));
    expect(error.code).toBe('credential-unsafe');
    expect(error.message).toContain(`owned by uid ${NOBODY}`);
  });

  it('reports a damaged credential instead of replacing it', () => {
    const file = path.join(tmp, 'secret');
    fs.writeFileSync(file, 'short', { mode: 0o600 });
    const error = credentialError(() => loadOrCreateSecret(file));
    expect(error.code).toBe('credential-invalid');
    expect(error.message).toBe(`${file} is damaged: it holds 5 bytes, not 32.`);
    expect(fs.readFileSync(file, 'utf8')).toBe('short');
  });

  it('leaves racing processes with one and the same secret', async () => {
    // Children run the real module, bundled, so they start fast enough to race.
    buildSync({ entryPoints: [SECURITY_SOURCE], bundle: true, platform: 'node', format: 'esm', outfile: path.join(tmp, 'security.mjs'), logLevel: 'silent' });
    const racer = path.join(tmp, 'racer.mjs');
    fs.writeFileSync(
      racer,
      `import { loadOrCreateSecret } from './security.mjs';
process.stdout.write('ready\\n');
process.stdin.once('data', () => {
  // Exit once the line is written: process.exit() right away could drop a pending write.
  process.stdout.write(loadOrCreateSecret(process.argv[2]).toString('hex') + '\\n', () => process.exit(0));
});
`,
    );
    const RACERS = 8;
    const ROUNDS = 3;
    for (let round = 0; round < ROUNDS; round++) {
      const dir = fs.mkdtempSync(path.join(tmp, 'round-'));
      const file = path.join(dir, 'secret');
      const children: { proc: ChildProcess; out: string; exited: Promise<number | null> }[] = [];
      for (let i = 0; i < RACERS; i++) {
        const proc = spawn(process.execPath, [racer, file], { stdio: ['pipe', 'pipe', 'inherit'] });
        track(proc.pid!);
        // 'close', not 'exit': 'exit' can come before the child's last output has been read
        // (libuv reaps every exited child on any SIGCHLD, possibly before reading its pipe).
        const child = { proc, out: '', exited: new Promise<number | null>((resolve) => proc.once('close', resolve)) };
        proc.stdout!.on('data', (chunk: Buffer) => (child.out += chunk.toString('utf8')));
        children.push(child);
      }
      await waitFor(() => children.every((c) => c.out.startsWith('ready\n')), { what: 'every racer ready' });
      for (const c of children) c.proc.stdin!.write('go\n');
      const codes = await Promise.all(children.map((c) => c.exited));
      expect(codes).toEqual(Array(RACERS).fill(0));
      // Each racer printed one whole secret, so a difference below is a real disagreement.
      for (const c of children) expect(c.out).toMatch(/^ready\n[0-9a-f]{64}\n$/);
      const secrets = new Set(children.map((c) => c.out.split('\n')[1]));
      expect(secrets.size).toBe(1);
      const [secret] = secrets;
      expect(secret).toBe(fs.readFileSync(file).toString('hex'));
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.readdirSync(dir)).toEqual(['secret']);
    }
  }, RACE_TIMEOUT_MS);
});

describe('deriveKey', () => {
  const secret = Buffer.alloc(CREDENTIAL_BYTES, 7);

  it('is deterministic and depends on every part', () => {
    const key = deriveKey(secret, 'holder', 'tab_a', 'inc1');
    expect(key.length).toBe(32);
    expect(deriveKey(secret, 'holder', 'tab_a', 'inc1').equals(key)).toBe(true);
    expect(deriveKey(secret, 'bridge', 'tab_a', 'inc1').equals(key)).toBe(false);
    expect(deriveKey(secret, 'holder', 'tab_b', 'inc1').equals(key)).toBe(false);
    expect(deriveKey(secret, 'holder', 'tab_a', 'inc2').equals(key)).toBe(false);
    expect(deriveKey(Buffer.alloc(CREDENTIAL_BYTES, 8), 'holder', 'tab_a', 'inc1').equals(key)).toBe(false);
  });

  it('never lets two different (role, tab, incarnation) triples share a key', () => {
    const role = fc.constantFrom<CredentialRole>('holder', 'ticket', 'bridge', 'server');
    const part = fc.string({ unit: fc.constantFrom('a', 'b', '|', '\0', '\u0001'), maxLength: 4 });
    fc.assert(
      fc.property(fc.tuple(role, part, part), fc.tuple(role, part, part), (x, y) => {
        fc.pre(x.join('\u{10FFFF}') !== y.join('\u{10FFFF}'));
        expect(deriveKey(secret, ...x).equals(deriveKey(secret, ...y))).toBe(false);
      }),
    );
    // The naive "a|b" join would collide here.
    expect(deriveKey(secret, 'holder', 'a|b', 'c').equals(deriveKey(secret, 'holder', 'a', 'b|c'))).toBe(false);
  });
});

describe('tickets', () => {
  const key = deriveKey(Buffer.alloc(CREDENTIAL_BYTES, 1), 'ticket', 'tab_a', 'inc1');
  const now = 1_700_000_000_000;
  const expect_ = { tabId: 'tab_a', holderInc: 'inc1' };
  const fresh = (over: Partial<Ticket> = {}): Ticket => ({
    ...makeTicket(key, { clientId: 'cl_1', tabId: 'tab_a', holderInc: 'inc1', expiresAt: now + TICKET_TTL_MS }),
    ...over,
  });

  it('admits a fresh ticket, also after msgpack and JSON round trips', () => {
    const ticket = fresh();
    expect(verifyTicket(key, ticket, now, expect_)).toEqual({ ok: true });
    expect(verifyTicket(key, unpack(pack(ticket)), now, expect_)).toEqual({ ok: true });
    expect(verifyTicket(key, JSON.parse(JSON.stringify(ticket)), now, expect_)).toEqual({ ok: true });
  });

  it('gives every ticket its own nonce and MAC', () => {
    const a = fresh();
    const b = fresh();
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.mac).not.toBe(b.mac);
  });

  it('refuses an expired ticket', () => {
    const ticket = fresh();
    expect(verifyTicket(key, ticket, ticket.expiresAt - 1, expect_)).toEqual({ ok: true });
    expect(verifyTicket(key, ticket, ticket.expiresAt, expect_)).toEqual({ ok: false, code: 'expired' });
    expect(verifyTicket(key, ticket, ticket.expiresAt + 60_000, expect_)).toEqual({ ok: false, code: 'expired' });
  });

  it('refuses a ticket with a changed field', () => {
    const badMac = { ok: false, code: 'bad-mac' };
    expect(verifyTicket(key, fresh({ clientId: 'cl_2' }), now, expect_)).toEqual(badMac);
    expect(verifyTicket(key, fresh({ expiresAt: now + TICKET_TTL_MS - 1 }), now, expect_)).toEqual(badMac);
    expect(verifyTicket(key, fresh({ nonce: 'other' }), now, expect_)).toEqual(badMac);
    const mac = Buffer.from(fresh().mac, 'base64');
    mac[0] ^= 1;
    expect(verifyTicket(key, fresh({ mac: mac.toString('base64') }), now, expect_)).toEqual(badMac);
  });

  it('refuses a ticket made with another key', () => {
    const otherKey = deriveKey(Buffer.alloc(CREDENTIAL_BYTES, 2), 'ticket', 'tab_a', 'inc1');
    expect(verifyTicket(otherKey, fresh(), now, expect_)).toEqual({ ok: false, code: 'bad-mac' });
  });

  it('refuses a ticket for another tab or holder incarnation', () => {
    const wrongTab = { ok: false, code: 'wrong-tab' };
    expect(verifyTicket(key, fresh(), now, { tabId: 'tab_b', holderInc: 'inc1' })).toEqual(wrongTab);
    expect(verifyTicket(key, fresh(), now, { tabId: 'tab_a', holderInc: 'inc2' })).toEqual(wrongTab);
    expect(verifyTicket(key, fresh({ tabId: 'tab_b' }), now, expect_)).toEqual(wrongTab);
  });

  it('refuses malformed tickets', () => {
    const malformed = { ok: false, code: 'malformed' };
    const t = fresh();
    for (const bad of [
      null,
      'ticket',
      [],
      {},
      { ...t, mac: undefined },
      { ...t, mac: 'AAAA' },
      { ...t, mac: `${t.mac}=` },
      { ...t, expiresAt: String(t.expiresAt) },
      { ...t, expiresAt: t.expiresAt + 0.5 },
      { ...t, clientId: '' },
      { ...t, clientId: 'x'.repeat(257) },
      { ...t, nonce: 5 },
    ]) {
      expect(verifyTicket(key, bad, now, expect_)).toEqual(malformed);
    }
  });

  it('refuses a properly MACed ticket that lives longer than any ticket may', () => {
    const ticket = fresh({});
    const long = makeTicket(key, { ...ticket, expiresAt: now + TICKET_TTL_MS + 1 });
    expect(verifyTicket(key, long, now, expect_)).toEqual({ ok: false, code: 'malformed' });
  });
});

describe('UsedTickets', () => {
  it('admits each MAC once until it expires, then forgets it', () => {
    const used = new UsedTickets();
    expect(used.use('m1', 1_000, 0)).toBe(true);
    expect(used.use('m1', 1_000, 500)).toBe(false);
    expect(used.use('m2', 2_000, 500)).toBe(true);
    expect(used.size).toBe(2);
    expect(used.use('m3', 3_000, 1_000)).toBe(true);
    expect(used.size).toBe(2);
    expect(used.use('m2', 2_000, 1_999)).toBe(false);
  });
});

describe('ids', () => {
  it('makes short base32 ids with the prefix', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId('tab_')));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^tab_[a-z2-7]{10}$/);
    expect(newId()).toMatch(/^[a-z2-7]{10}$/);
  });

  it('makes incarnations that fit socket names', () => {
    const inc = newIncarnation();
    expect(inc).toMatch(/^[a-z2-7]{10}$/);
    expect(newIncarnation()).not.toBe(inc);
    const tabId = newId('tab_');
    const p = resolvePaths({ env: { A1_HOME: tmp } });
    expect(parseSocketName(path.basename(p.holderSock(tabId, inc)))).toEqual({ kind: 'holder', tabId, incarnation: inc });
  });
});
