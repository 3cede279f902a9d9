// A link's channels over one byte stream pair (issue 30): ssh's stdio on the local side, the
// entry's stdin and stdout on the other. Each channel from 1 up is a Duplex, so a Connection
// (src/protocol/connection.ts) runs over it as over a Unix socket; channel 0 carries the link's
// own messages (linkSchema.ts). The thin I/O shell around the pure MuxDecoder.
import { Duplex, type Readable, type Writable } from 'node:stream';
import { ProtocolError } from '../protocol/errors.js';
import type { FrameDecoder } from '../protocol/frame.js';
import { encodeLinkMessage, LINK_CHANNEL, linkMessageDecoder, type LinkMessage } from './linkSchema.js';
import { encodeMuxFrames, MuxDecoder } from './mux.js';

type CloseListener = (reason?: Error) => void;

export class MuxLink {
  readonly #input: Readable;
  readonly #output: Writable;
  readonly #decoder = new MuxDecoder();
  readonly #linkDecoder: FrameDecoder = linkMessageDecoder();
  readonly #channels = new Map<number, { stream: Duplex; state: { closeSent: boolean } }>();
  /** Channels whose reader has more buffered than it wants: the input waits for them. */
  readonly #full = new Set<number>();
  readonly #messageListeners = new Set<(msg: LinkMessage) => void>();
  readonly #closeListeners = new Set<CloseListener>();
  #closed = false;

  constructor(input: Readable, output: Writable) {
    this.#input = input;
    this.#output = output;
    input.on('data', (chunk: Buffer) => this.#onData(chunk));
    input.on('end', () => this.close(this.#decoder.end().find((r) => !r.ok)?.error));
    input.on('error', (err) => this.close(err));
    output.on('error', (err) => this.close(err));
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Bytes written to the stream but not yet taken by it. */
  get pendingBytes(): number {
    return this.#output.writableLength;
  }

  send(msg: LinkMessage): void {
    if (this.#closed) return;
    for (const frame of encodeLinkMessage(msg)) this.#output.write(frame);
  }

  onMessage(fn: (msg: LinkMessage) => void): () => void {
    this.#messageListeners.add(fn);
    return () => this.#messageListeners.delete(fn);
  }

  /** Called once, when the link ends, with the first reason (none for a clean end). */
  onClose(fn: CloseListener): () => void {
    this.#closeListeners.add(fn);
    return () => this.#closeListeners.delete(fn);
  }

  /**
   * The byte stream of channel `ch` (from 1). Ending or destroying it tells the peer (`close`);
   * the peer's `close` ends it here. Bytes that arrive for a channel nobody has open are dropped:
   * they were in flight when it closed.
   */
  channel(ch: number): Duplex {
    if (ch === LINK_CHANNEL || this.#channels.has(ch)) throw new RangeError(`Channel ${ch} is taken.`);
    const state = { closeSent: false };
    const sendClose = (): void => {
      if (state.closeSent) return;
      state.closeSent = true;
      this.send({ t: 'close', ch });
    };
    const stream = new Duplex({
      read: () => this.#unblock(ch),
      write: (chunk: Buffer, _encoding, done) => {
        if (this.#closed || state.closeSent) return done(new Error(`Channel ${ch} is closed.`));
        let room = true;
        for (const frame of encodeMuxFrames(ch, chunk)) room = this.#output.write(frame);
        if (room) done();
        else this.#output.once('drain', () => done());
      },
      final: (done) => {
        sendClose();
        done();
      },
      destroy: (error, done) => {
        this.#forget(ch);
        sendClose();
        done(error);
      },
    });
    this.#channels.set(ch, { stream, state });
    return stream;
  }

  /** Ends every channel and the link. Idempotent. */
  close(reason?: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const { stream } of [...this.#channels.values()]) stream.destroy();
    this.#channels.clear();
    this.#output.end();
    this.#input.pause();
    for (const fn of [...this.#closeListeners]) fn(reason);
    this.#closeListeners.clear();
    this.#messageListeners.clear();
  }

  #onData(chunk: Buffer): void {
    for (const frame of this.#decoder.push(chunk)) {
      if (this.#closed) return;
      if (!frame.ok) return this.close(frame.error);
      if (frame.channel === LINK_CHANNEL) this.#onLinkBytes(frame.payload);
      else this.#onChannelBytes(frame.channel, frame.payload);
    }
  }

  #onChannelBytes(ch: number, payload: Buffer): void {
    const stream = this.#channels.get(ch)?.stream;
    if (stream === undefined) return;
    // A frame may be a view of the input's chunk, which a stream never reuses: no copy needed.
    if (!stream.push(payload)) {
      this.#full.add(ch);
      this.#input.pause();
    }
  }

  #onLinkBytes(payload: Buffer): void {
    for (const result of this.#linkDecoder.push(payload)) {
      if (this.#closed) return;
      if (!result.ok) {
        if (result.skipped) continue; // a newer peer's message: that feature alone is off
        return this.close(result.error);
      }
      const msg = result.msg as LinkMessage;
      if (msg.t === 'close') this.#onPeerClose(msg.ch);
      for (const fn of [...this.#messageListeners]) fn(msg);
    }
  }

  /** The peer closed `ch`: what it sent before is still read, then the stream ends; nothing more
   * may be written to it (a write fails, as on a socket whose peer went away). */
  #onPeerClose(ch: number): void {
    const entry = this.#channels.get(ch);
    if (entry === undefined) return;
    this.#forget(ch);
    entry.state.closeSent = true;
    entry.stream.push(null);
    entry.stream.end();
  }

  #forget(ch: number): void {
    this.#channels.delete(ch);
    this.#unblock(ch);
  }

  /** `ch` no longer holds the input back; the input reads again once no channel does. */
  #unblock(ch: number): void {
    if (this.#full.delete(ch) && this.#full.size === 0 && !this.#closed) this.#input.resume();
  }
}
