// Credentials (SPEC §4) and data-plane tickets (SPEC §15). One random profile secret derives
// every holder, bridge and ticket key; a separate client token admits clients to the server.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fsyncDir } from './atomicWrite.js';

/** 256 bits: the size of an HMAC-SHA256 key, so deriving keys loses no strength. */
export const CREDENTIAL_BYTES = 32;
/** How long a ticket admits a data connection; it is checked once, at the handshake. */
export const TICKET_TTL_MS = 30_000;
/** Ids are 10 base32 characters (50 bits): collisions among a profile's tabs are negligible. */
const ID_CHARS = 10;
/** Ticket nonces are 16 base32 characters (80 bits): two tickets never share a MAC in practice. */
const NONCE_CHARS = 16;
/** A ticket arrives from a not-yet-authenticated peer; bounding its strings bounds our work. */
const TICKET_FIELD_MAX = 256;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const MAC_BYTES = 32;
const OWNER_ONLY_FILE_MODE = 0o600;
/** Any group or other permission exposes a credential. */
const FOREIGN_ACCESS_BITS = 0o077;
/** Domain separation: a derived key can never equal a ticket MAC or a key of another version. */
const KEY_DOMAIN = 'a1-key-v1';
const TICKET_DOMAIN = 'a1-ticket-v1';

export type CredentialErrorCode = 'credential-unsafe' | 'credential-invalid';

export class CredentialError extends Error {
  constructor(
    readonly code: CredentialErrorCode,
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'CredentialError';
  }
}

/** The profile secret: created once, 0600, never leaves this file except as derived keys. */
export function loadOrCreateSecret(file: string): Buffer {
  return loadOrCreateCredential(file);
}

/** The client token: proves to the server that a client runs as this user. */
export function loadOrCreateClientToken(file: string): Buffer {
  return loadOrCreateCredential(file);
}

/**
 * Puts the client token back when its file vanished (a tmp cleaner removed the run directory while
 * the server ran): the server keeps the token in memory, and clients read it from this file. Only
 * the lease holder calls it. Written like a new credential: complete before anyone can read it.
 */
export function restoreClientToken(file: string, token: Buffer): boolean {
  if (readCredential(file) !== null) return false;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeCredential(file, token);
  return true;
}

/** The client token, or null when no server has created one yet. */
export function readClientToken(file: string): Buffer | null {
  return readCredential(file);
}

/**
 * Loads the credential, or creates it so that racing processes all end with the same one: each
 * writes a complete candidate to its own O_EXCL temp file and link()s it into place, which fails
 * for every process but the first. Nobody can read a half-written credential.
 */
function loadOrCreateCredential(file: string): Buffer {
  const existing = readCredential(file);
  if (existing !== null) return existing;
  writeCredential(file, crypto.randomBytes(CREDENTIAL_BYTES));
  const winner = readCredential(file);
  if (winner === null) {
    throw new CredentialError('credential-invalid', `${file} vanished while it was being created.`, file);
  }
  return winner;
}

/** Writes `value` to a private temp file and links it into place, unless the file exists (another
 * process won: its value stands). Not writeFileAtomic: a rename would replace the winner's value. */
function writeCredential(file: string, value: Buffer): void {
  const temp = `${file}.${process.pid}.${randomBase32(ID_CHARS)}.tmp`;
  const fd = fs.openSync(
    temp,
    fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW,
    OWNER_ONLY_FILE_MODE,
  );
  try {
    try {
      fs.fchmodSync(fd, OWNER_ONLY_FILE_MODE);
      fs.writeFileSync(fd, value);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      fs.linkSync(temp, file);
      fsyncDir(path.dirname(file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

function readCredential(file: string): Buffer | null {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') throw unsafe(file, 'it is a symbolic link');
    throw error;
  }
  try {
    const st = fs.fstatSync(fd);
    const uid = process.getuid?.();
    if (!st.isFile()) throw unsafe(file, 'it is not a regular file');
    if (uid !== undefined && st.uid !== uid) throw unsafe(file, `it is owned by uid ${st.uid}, not ${uid}`);
    if ((st.mode & FOREIGN_ACCESS_BITS) !== 0) {
      throw unsafe(file, `its mode is ${(st.mode & 0o777).toString(8).padStart(4, '0')}, not 0600`);
    }
    const data = fs.readFileSync(fd);
    if (data.length !== CREDENTIAL_BYTES) {
      throw new CredentialError(
        'credential-invalid',
        `${file} is damaged: it holds ${data.length} bytes, not ${CREDENTIAL_BYTES}.`,
        file,
      );
    }
    return data;
  } finally {
    fs.closeSync(fd);
  }
}

function unsafe(file: string, why: string): CredentialError {
  return new CredentialError('credential-unsafe', `Refusing to use ${file}: ${why}.`, file);
}

export type CredentialRole = 'holder' | 'ticket' | 'bridge' | 'server';

/** HMAC(secret, role | tabId | incarnation), each part length-prefixed so no two inputs collide. */
export function deriveKey(secret: Buffer, role: CredentialRole, tabId: string, incarnation: string): Buffer {
  return hmac(secret, [KEY_DOMAIN, role, tabId, incarnation]);
}

/** Admits one data connection to one holder incarnation (SPEC §15). Plain data: msgpack- and JSON-safe. */
export interface Ticket {
  clientId: string;
  tabId: string;
  holderInc: string;
  /** Wall-clock ms (Date.now()) after which the ticket admits nothing. */
  expiresAt: number;
  nonce: string;
  /** base64 HMAC-SHA256 over every other field, keyed by that holder incarnation's ticket key. */
  mac: string;
}

export type TicketFields = Omit<Ticket, 'mac' | 'nonce'> & { nonce?: string };

/**
 * The key a ticket's bearer proves in the data-plane handshake. The server hands it to the
 * client beside the ticket; the holder derives it from its ticket key. The ticket itself, which
 * crosses the wire in the handshake, is therefore not enough to pass it.
 */
export function ticketProofKey(key: Buffer, ticket: Pick<Ticket, 'mac'>): Buffer {
  return hmac(key, [KEY_DOMAIN, 'ticket-proof', ticket.mac]);
}

export type TicketVerdict = { ok: true } | { ok: false; code: 'expired' | 'bad-mac' | 'wrong-tab' | 'malformed' };

export function makeTicket(key: Buffer, fields: TicketFields): Ticket {
  const unsigned = { ...fields, nonce: fields.nonce ?? randomBase32(NONCE_CHARS) };
  return { ...unsigned, mac: ticketMac(key, unsigned).toString('base64') };
}

/**
 * Checks a ticket a peer presented. Field checks come before the MAC (they reveal nothing
 * secret and name the real problem when a client dialled the wrong holder); the lifetime comes
 * after it, so a forged expiry reads as forged. Single use is the holder's job (UsedTickets).
 */
export function verifyTicket(
  key: Buffer,
  ticket: unknown,
  nowMs: number,
  expect: { tabId: string; holderInc: string },
): TicketVerdict {
  if (!isWellFormedTicket(ticket)) return { ok: false, code: 'malformed' };
  if (ticket.tabId !== expect.tabId || ticket.holderInc !== expect.holderInc) return { ok: false, code: 'wrong-tab' };
  const expected = ticketMac(key, ticket);
  if (!crypto.timingSafeEqual(expected, Buffer.from(ticket.mac, 'base64'))) return { ok: false, code: 'bad-mac' };
  if (nowMs >= ticket.expiresAt) return { ok: false, code: 'expired' };
  // Properly MACed but living longer than any ticket may: not issued by these rules.
  if (ticket.expiresAt - nowMs > TICKET_TTL_MS) return { ok: false, code: 'malformed' };
  return { ok: true };
}

/** The shape a ticket must have before its MAC is checked (verifyTicket checks it too). */
export function isWellFormedTicket(value: unknown): value is Ticket {
  if (typeof value !== 'object' || value === null) return false;
  const t: Partial<Record<keyof Ticket, unknown>> = value;
  const shortString = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= TICKET_FIELD_MAX;
  return (
    shortString(t.clientId) &&
    shortString(t.tabId) &&
    shortString(t.holderInc) &&
    shortString(t.nonce) &&
    Number.isSafeInteger(t.expiresAt) &&
    typeof t.mac === 'string' &&
    Buffer.from(t.mac, 'base64').length === MAC_BYTES &&
    Buffer.from(t.mac, 'base64').toString('base64') === t.mac
  );
}

function ticketMac(key: Buffer, t: Omit<Ticket, 'mac'>): Buffer {
  return hmac(key, [TICKET_DOMAIN, t.clientId, t.tabId, t.holderInc, String(t.expiresAt), t.nonce]);
}

function hmac(key: Buffer, parts: string[]): Buffer {
  const mac = crypto.createHmac('sha256', key);
  for (const part of parts) {
    const bytes = Buffer.from(part, 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    mac.update(length).update(bytes);
  }
  return mac.digest();
}

/** Tickets a holder has admitted, remembered until they expire (after which they fail anyway). */
export class UsedTickets {
  private readonly expiries = new Map<string, number>();

  /** Records the ticket with this MAC as used; false if it was used already. */
  use(mac: string, expiresAt: number, nowMs: number): boolean {
    for (const [seen, expiry] of this.expiries) if (expiry <= nowMs) this.expiries.delete(seen);
    if (this.expiries.has(mac)) return false;
    this.expiries.set(mac, expiresAt);
    return true;
  }

  get size(): number {
    return this.expiries.size;
  }
}

/** A short random id such as `tab_k3vqwx2m7a`. */
export function newId(prefix = ''): string {
  return prefix + randomBase32(ID_CHARS);
}

/** A fresh incarnation id for one start of a holder or a child. */
export function newIncarnation(): string {
  return randomBase32(ID_CHARS);
}

/** Each byte's low 5 bits pick a character: 256 is a multiple of 32, so every one is equally likely. */
function randomBase32(chars: number): string {
  let out = '';
  for (const byte of crypto.randomBytes(chars)) out += BASE32[byte & 31];
  return out;
}
