// One framed, validated message stream over a connected socket (a Unix socket, or any duplex
// byte stream: a channel of a link to another machine). A misbehaving peer ends only its own
// connection: decode errors close it and are reported through onClose, never thrown.
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { ProtocolError } from './errors.js';
import { encodeFrame, FrameDecoder, MAX_FRAME_BYTES } from './frame.js';
import { withHandshake } from './handshake.js';
import { validateMessage, type Message, type Schema } from './schema.js';

/** A local connect that takes longer than this is a stuck peer (SPEC §15 allows 2 s for connect plus handshake). */
export const CONNECT_TIMEOUT_MS = 2_000;
/**
 * How long a closing connection waits for its last frames (a reject, a final reply) to leave
 * before the socket is destroyed: ample on a local socket, and a peer that stopped reading
 * cannot hold the connection open.
 */
const CLOSE_LINGER_MS = 1_000;

export interface ConnectionOptions {
  maxFrameBytes?: number;
}

type CloseListener = (reason?: Error) => void;

/** What the handshake needs of a connection, whatever its plane's message types. */
export interface AnyConnection {
  send(msg: Message): void;
  onMessage(fn: (msg: Message) => void): () => void;
  onSkipped(fn: () => void): () => void;
  onClose(fn: (reason?: Error) => void): () => void;
  close(reason?: Error): void;
}

/**
 * `In`: the messages this side receives; `Out`: the ones it sends (the plane's direction, e.g.
 * ControlToServer / ControlToClient in src/protocol/messages.ts). Both are checked against the
 * schema at run time; the types say which of them each side handles.
 */
export class Connection<In extends Message = Message, Out extends Message = Message> {
  readonly #socket: Duplex;
  readonly #schema: Schema;
  readonly #maxFrameBytes: number;
  readonly #decoder: FrameDecoder;
  readonly #messageListeners = new Set<(msg: In) => void>();
  readonly #closeListeners = new Set<CloseListener>();
  readonly #drainListeners = new Set<() => void>();
  readonly #skipListeners = new Set<() => void>();
  /** Messages not yet delivered: they wait here (with reading paused) while nobody listens. */
  #inbox: Message[] = [];
  #delivering = false;
  #readPaused = false;
  #closing = false;
  #closed = false;
  #reason: Error | undefined;

  /** `schema` is the caller's message list; the handshake messages are added to it. */
  constructor(socket: Duplex, schema: Schema, opts: ConnectionOptions = {}) {
    this.#socket = socket;
    this.#schema = withHandshake(schema);
    this.#maxFrameBytes = opts.maxFrameBytes ?? MAX_FRAME_BYTES;
    this.#decoder = new FrameDecoder(this.#schema, { maxFrameBytes: this.#maxFrameBytes });
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('drain', () => {
      for (const fn of [...this.#drainListeners]) fn();
    });
    socket.on('error', (err) => {
      this.#reason ??= err;
    });
    socket.on('close', () => this.#onClosed());
  }

  /** Bytes written but not yet taken by the kernel: what a single-slot lane watches. */
  get pendingBytes(): number {
    return this.#socket.writableLength;
  }

  get closed(): boolean {
    return this.#closing || this.#closed;
  }

  /**
   * Writes one frame. Sending on a closed connection does nothing (its close is already being
   * reported); an invalid or oversize message is a bug in the caller and throws ProtocolError.
   */
  send(msg: Out): void {
    const checked = validateMessage(this.#schema, msg);
    if (checked instanceof ProtocolError) throw checked;
    const frame = encodeFrame(msg, this.#maxFrameBytes);
    if (this.closed || !this.#socket.writable) return;
    this.#socket.write(frame);
  }

  /**
   * Calls `fn` for every message, in order. Messages that arrive while nobody listens are kept
   * and delivered (asynchronously) to the next listener, so a caller may subscribe after an
   * await without losing what came in meanwhile. Returns an unsubscribe function.
   */
  onMessage(fn: (msg: In) => void): () => void {
    this.#messageListeners.add(fn);
    if (this.#inbox.length > 0) queueMicrotask(() => this.#deliver());
    return () => {
      this.#messageListeners.delete(fn);
    };
  }

  /** Called once, when the socket has closed, with the first reason (none for a clean close). */
  onClose(fn: CloseListener): () => void {
    if (this.#closed) {
      const reason = this.#reason;
      queueMicrotask(() => fn(reason));
      return () => {};
    }
    this.#closeListeners.add(fn);
    return () => {
      this.#closeListeners.delete(fn);
    };
  }

  /**
   * Called for each frame of a type this side does not know: it was dropped and the connection
   * goes on (SPEC §6: what the peer has and this side lacks disables only that operation). The
   * type's name is the peer's text and is not passed on.
   */
  onSkipped(fn: () => void): () => void {
    this.#skipListeners.add(fn);
    return () => {
      this.#skipListeners.delete(fn);
    };
  }

  /** Called whenever the socket's write buffer has emptied after filling up. */
  onDrain(fn: () => void): () => void {
    this.#drainListeners.add(fn);
    return () => {
      this.#drainListeners.delete(fn);
    };
  }

  /** Stops delivering messages, lets frames already sent leave, then closes. Idempotent. */
  close(reason?: Error): void {
    if (this.closed) return;
    this.#closing = true;
    this.#reason ??= reason;
    this.#inbox = [];
    const linger = setTimeout(() => this.#socket.destroy(), CLOSE_LINGER_MS);
    linger.unref();
    this.#socket.once('close', () => clearTimeout(linger));
    this.#socket.end(() => this.#socket.destroy());
  }

  #onData(chunk: Buffer): void {
    if (this.closed) return;
    let error: ProtocolError | undefined;
    let skipped = 0;
    for (const result of this.#decoder.push(chunk)) {
      if (result.ok) this.#inbox.push(result.msg);
      else if (result.skipped) skipped++;
      else error = result.error;
    }
    this.#deliver();
    for (let i = 0; i < skipped && !this.closed; i++) for (const fn of [...this.#skipListeners]) fn();
    if (error) this.#abort(error);
  }

  /** A peer that broke the protocol gets no further reads or writes. */
  #abort(error: ProtocolError): void {
    if (this.closed) return;
    this.#closing = true;
    this.#reason ??= error;
    this.#inbox = [];
    this.#socket.destroy();
  }

  #deliver(): void {
    // A listener that sends or subscribes re-enters here; the outer loop keeps the order.
    if (this.#delivering) return;
    this.#delivering = true;
    const inbox = this.#inbox;
    let next = 0;
    try {
      while (next < inbox.length && this.#messageListeners.size > 0 && !this.closed) {
        // Validated against the schema on decode (FrameDecoder): it is one of the schema's messages.
        const msg = inbox[next++] as In;
        for (const fn of [...this.#messageListeners]) fn(msg);
      }
    } finally {
      // A throwing listener is a bug that must surface, but its message is not delivered twice.
      inbox.splice(0, next);
      this.#delivering = false;
    }
    this.#pauseWhileUnheard();
  }

  #pauseWhileUnheard(): void {
    if (this.closed) return;
    const unheard = this.#inbox.length > 0;
    if (unheard && !this.#readPaused) this.#socket.pause();
    else if (!unheard && this.#readPaused) this.#socket.resume();
    this.#readPaused = unheard;
  }

  #onClosed(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#inbox = [];
    const reason = this.#reason;
    const listeners = [...this.#closeListeners];
    this.#closeListeners.clear();
    this.#drainListeners.clear();
    this.#skipListeners.clear();
    this.#messageListeners.clear();
    for (const fn of listeners) fn(reason);
  }
}

/**
 * Connects to a Unix socket. Rejects with the socket's own error, so `ENOENT` and
 * `ECONNREFUSED` stay recognisable by `.code`, or with ProtocolError 'timeout'.
 */
export function connectUnix<In extends Message = Message, Out extends Message = Message>(
  path: string,
  schema: Schema,
  timeoutMs: number = CONNECT_TIMEOUT_MS,
  opts: ConnectionOptions = {},
): Promise<Connection<In, Out>> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection({ path });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new ProtocolError('timeout', 'The connect did not complete in time.'));
    }, timeoutMs);
    const onError = (err: Error): void => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    };
    socket.once('error', onError);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeListener('error', onError);
      resolve(new Connection<In, Out>(socket, schema, opts));
    });
  });
}
