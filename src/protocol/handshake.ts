// The handshake every connection starts with (SPEC §6): protocol generation, roles, a mutual
// challenge-response proof of a shared key, and each side's optional methods.
//
//   acceptor  → hello   {gen, role, nonce: Na, methods}
//   connector → auth    {gen, role, nonce: Nc, proof: HMAC(key, AUTH ‖ Na ‖ Nc), methods, ...extra}
//   acceptor  → welcome {proof: HMAC(key, WELCOME ‖ Na ‖ Nc), methods}   or   reject {code, message}
//
// The key never crosses the wire; fresh nonces on both sides make every proof single-use, and
// the labels keep one side's proof from ever serving as the other's.
import crypto from 'node:crypto';
import type { AnyConnection, Connection } from './connection.js';
import { isProtocolErrorCode, ProtocolError } from './errors.js';
import { defineSchema, mergeSchemas, type MessageOf, type Schema } from './schema.js';

/** Bumped when the wire format changes incompatibly; peers of different generations never talk. */
export const PROTOCOL_GENERATION = 1;
/** A connect with no completed handshake within 2 s means the peer is unresponsive (SPEC §15). */
export const HANDSHAKE_TIMEOUT_MS = 2_000;
/** 256-bit nonces: never repeated by chance, so a recorded proof is worthless later. */
const NONCE_BYTES = 32;
const PROOF_BYTES = 32; // SHA-256
const AUTH_LABEL = Buffer.from('a1 auth\0');
const WELCOME_LABEL = Buffer.from('a1 welcome\0');
/** A peer's reject text is shown to people; a short sentence is all it may be. */
const MAX_REJECT_MESSAGE_CHARS = 200;

/**
 * These shapes stay the same in every generation, so that a peer of another generation is
 * always recognised as one (a 'generation' error) rather than as a malformed peer.
 */
export const handshakeSchema = defineSchema({
  hello: { gen: 'int', role: 'string', nonce: 'bytes', methods: 'string[]' },
  auth: { gen: 'int', role: 'string', proof: 'bytes', nonce: 'bytes', methods: 'string[]' },
  welcome: { proof: 'bytes', methods: 'string[]' },
  reject: { code: 'string', message: 'string' },
});

/** The handshake's messages, derived from its schema. */
export type HandshakeMessage = MessageOf<typeof handshakeSchema>;
export type HelloMessage = Extract<HandshakeMessage, { t: 'hello' }>;
/** The connector's answer; fields beyond these are the connector's `extra` (e.g. a ticket), which
 * the acceptor's `keyFor` checks. */
export type AuthMessage = Extract<HandshakeMessage, { t: 'auth' }> & { readonly [extra: string]: unknown };

const withHandshakeCache = new WeakMap<Schema, Schema>();

/** `schema` plus the handshake messages (their names are reserved). */
export function withHandshake(schema: Schema): Schema {
  let merged = withHandshakeCache.get(schema);
  if (!merged) {
    merged = mergeSchemas(schema, handshakeSchema);
    withHandshakeCache.set(schema, merged);
  }
  return merged;
}

export interface AcceptOptions {
  role: string;
  methods: string[];
  timeoutMs?: number;
  /**
   * The key the connector must prove, chosen from its auth message (by role, or by a ticket in
   * its extra fields), or the reason it is refused. The auth message is the peer's: a throw
   * here refuses the peer as 'auth' instead of escaping.
   */
  keyFor(auth: AuthMessage): Buffer | ProtocolError;
}

export interface AcceptedPeer {
  peerRole: string;
  peerMethods: string[];
  auth: AuthMessage;
}

export interface ConnectOptions {
  role: string;
  key: Buffer;
  methods: string[];
  /** Extra fields of the auth message, for the acceptor's keyFor. */
  extra?: object;
  timeoutMs?: number;
}

export interface ConnectedPeer {
  peerRole: string;
  peerMethods: string[];
}

/** The accepting side. On failure the peer is sent a reject, the connection closes, and this rejects with a ProtocolError. */
export function acceptHandshake(conn: AnyConnection, opts: AcceptOptions): Promise<AcceptedPeer> {
  const nonce = crypto.randomBytes(NONCE_BYTES);
  return runHandshake<AcceptedPeer>(conn, opts.timeoutMs, (step) => {
    conn.send({ t: 'hello', gen: PROTOCOL_GENERATION, role: opts.role, nonce, methods: opts.methods });
    return (msg) => {
      if (msg.t !== 'auth') return step.fail(new ProtocolError('handshake', 'The peer did not answer the hello with auth.'));
      const auth: AuthMessage = msg;
      if (auth.gen !== PROTOCOL_GENERATION) return step.fail(generationMismatch(auth.gen));
      if (auth.nonce.length !== NONCE_BYTES) return step.fail(new ProtocolError('handshake', 'The peer sent a nonce of the wrong size.'));
      let key: Buffer | ProtocolError;
      try {
        key = opts.keyFor(auth);
      } catch (err) {
        return step.fail(new ProtocolError('auth', 'The credential could not be checked.', { cause: err }));
      }
      if (key instanceof ProtocolError) return step.fail(key);
      if (!proofMatches(auth.proof, prove(key, AUTH_LABEL, nonce, auth.nonce))) {
        return step.fail(new ProtocolError('auth', 'The credential proof did not verify.'));
      }
      conn.send({ t: 'welcome', proof: prove(key, WELCOME_LABEL, nonce, auth.nonce), methods: opts.methods });
      step.succeed({ peerRole: auth.role, peerMethods: auth.methods, auth });
    };
  });
}

/** The connecting side; it verifies the acceptor's proof too. Fails like acceptHandshake. */
export function connectHandshake(conn: AnyConnection, opts: ConnectOptions): Promise<ConnectedPeer> {
  const nonce = crypto.randomBytes(NONCE_BYTES);
  let hello: HelloMessage | null = null;
  return runHandshake<ConnectedPeer>(conn, opts.timeoutMs, (step) => (msg) => {
    if (!hello) {
      if (msg.t !== 'hello') return step.fail(new ProtocolError('handshake', 'The peer did not start with hello.'));
      const h = msg;
      if (h.gen !== PROTOCOL_GENERATION) return step.fail(generationMismatch(h.gen));
      if (h.nonce.length !== NONCE_BYTES) return step.fail(new ProtocolError('handshake', 'The peer sent a nonce of the wrong size.'));
      hello = h;
      conn.send({
        ...opts.extra,
        t: 'auth',
        gen: PROTOCOL_GENERATION,
        role: opts.role,
        proof: prove(opts.key, AUTH_LABEL, h.nonce, nonce),
        nonce,
        methods: opts.methods,
      });
      return;
    }
    if (msg.t !== 'welcome') return step.fail(new ProtocolError('handshake', 'The peer did not answer auth with welcome.'));
    const welcome = msg;
    if (!proofMatches(welcome.proof, prove(opts.key, WELCOME_LABEL, hello.nonce, nonce))) {
      return step.fail(new ProtocolError('auth', "The peer's credential proof did not verify."));
    }
    step.succeed({ peerRole: hello.role, peerMethods: welcome.methods });
  });
}

interface Step<T> {
  succeed(value: T): void;
  fail(error: ProtocolError): void;
}

/**
 * The part both sides share: one message listener for the handshake's duration, the deadline,
 * a reject from the peer, and the connection closing underneath. `start` runs once, may send,
 * and returns the handler for the peer's messages.
 */
function runHandshake<T>(
  connection: AnyConnection,
  timeoutMs: number = HANDSHAKE_TIMEOUT_MS,
  start: (step: Step<T>) => (msg: HandshakeMessage) => void,
): Promise<T> {
  // Until it settles, the connection speaks only the handshake (every plane's schema includes it,
  // src/protocol/connection.ts, and anything else fails the handshake below).
  const conn = connection as unknown as Connection<HandshakeMessage, HandshakeMessage>;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (): void => {
      settled = true;
      clearTimeout(timer);
      offMessage();
      offSkipped();
      offClose();
    };
    const end = (error: ProtocolError, tellPeer: boolean): void => {
      if (settled) return;
      settle();
      if (tellPeer) conn.send({ t: 'reject', code: error.code, message: error.message });
      conn.close(error);
      reject(error);
    };
    const step: Step<T> = {
      succeed: (value) => {
        if (settled) return;
        settle();
        resolve(value);
      },
      fail: (error) => end(error, true),
    };
    const timer = setTimeout(() => step.fail(new ProtocolError('timeout', 'The peer did not complete the handshake in time.')), timeoutMs);
    let handle: ((msg: HandshakeMessage) => void) | null = null;
    const offMessage = conn.onMessage((msg) => {
      if (settled || !handle) return;
      if (msg.t === 'reject') end(rejectedByPeer(msg), false);
      else handle(msg);
    });
    // Before the handshake ends both sides speak only its messages: anything else is a broken peer.
    const offSkipped = conn.onSkipped(() => step.fail(new ProtocolError('handshake', 'The peer sent a message of an unknown type during the handshake.')));
    const offClose = conn.onClose((reason) => {
      if (settled) return;
      const error =
        reason instanceof ProtocolError
          ? reason
          : new ProtocolError('handshake', 'The connection closed during the handshake.', { cause: reason });
      end(error, false);
    });
    handle = start(step);
  });
}

function prove(key: Buffer, label: Buffer, acceptorNonce: Uint8Array, connectorNonce: Uint8Array): Buffer {
  return crypto.createHmac('sha256', key).update(label).update(acceptorNonce).update(connectorNonce).digest();
}

function proofMatches(received: Uint8Array, expected: Buffer): boolean {
  return received.length === PROOF_BYTES && crypto.timingSafeEqual(received, expected);
}

function generationMismatch(peerGeneration: number): ProtocolError {
  return new ProtocolError(
    'generation',
    `The peer speaks protocol generation ${peerGeneration}, this side ${PROTOCOL_GENERATION}; stop the host explicitly (a1 tabs host stop).`,
  );
}

function rejectedByPeer(msg: Extract<HandshakeMessage, { t: 'reject' }>): ProtocolError {
  const code = isProtocolErrorCode(msg.code) ? msg.code : 'handshake';
  return new ProtocolError(code, msg.message.slice(0, MAX_REJECT_MESSAGE_CHARS));
}
