// Framing: a 4-byte big-endian length, then one MessagePack-encoded message. The decoder is
// pure (bytes in, typed results out) and never throws: whatever a peer sends becomes either a
// validated message or a ProtocolError.
import { Packr } from 'msgpackr';
import { ProtocolError } from './errors.js';
import { currentForm, validateMessage, type Message, type Schema } from './schema.js';

/**
 * The largest message body accepted or sent. A whole paste of the 1 MiB input bound fits with
 * room to spare (msgpack adds little), and a full surface is far smaller; anything bigger is a
 * broken or hostile peer, rejected before its body is buffered.
 */
export const MAX_FRAME_BYTES = 8 * 1024 * 1024;

const HEADER_BYTES = 4;

// Records would make a frame depend on structures sent earlier; plain maps keep each frame
// self-contained, so any frame can be decoded (or dropped) on its own.
const packr = new Packr({ useRecords: false, mapsAsObjects: true });

/** One frame for `msg`. Throws ProtocolError 'oversize' rather than send what the peer would refuse. */
export function encodeFrame(msg: object, maxFrameBytes: number = MAX_FRAME_BYTES): Buffer {
  const body = packr.pack(msg);
  if (body.length > maxFrameBytes) {
    throw new ProtocolError('oversize', `A message of ${body.length} bytes exceeds the ${maxFrameBytes}-byte frame limit.`);
  }
  const frame = Buffer.allocUnsafe(HEADER_BYTES + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, HEADER_BYTES);
  return frame;
}

/**
 * A frame of a type this side does not know is `skipped`: its length delimits it, so it is
 * dropped whole and decoding goes on (a newer peer's optional message disables only that
 * operation, SPEC §6). Every other error ends the stream.
 */
export type DecodeResult = { ok: true; msg: Message } | { ok: false; error: ProtocolError; skipped?: true };

export interface FrameDecoderOptions {
  maxFrameBytes?: number;
}

/**
 * Turns a byte stream into messages. Chunks may split or coalesce frames anywhere. Chunks are
 * kept (not copied) until their frame is complete, and a frame spanning several chunks is
 * assembled with one copy, so a large frame costs O(size). The decoder keeps references to the
 * chunks it is given: callers must not reuse them. After the first error it returns nothing more.
 */
export class FrameDecoder {
  readonly #schema: Schema;
  readonly #maxFrameBytes: number;
  #chunks: Buffer[] = [];
  #buffered = 0;
  /** Body length of the frame being read, or -1 while its header is incomplete. */
  #bodyBytes = -1;
  #poisoned = false;

  constructor(schema: Schema, opts: FrameDecoderOptions = {}) {
    this.#schema = schema;
    this.#maxFrameBytes = opts.maxFrameBytes ?? MAX_FRAME_BYTES;
  }

  push(chunk: Buffer): DecodeResult[] {
    if (this.#poisoned) return [];
    if (chunk.length > 0) {
      this.#chunks.push(chunk);
      this.#buffered += chunk.length;
    }
    const results: DecodeResult[] = [];
    for (;;) {
      if (this.#bodyBytes < 0) {
        if (this.#buffered < HEADER_BYTES) break;
        const length = this.#take(HEADER_BYTES).readUInt32BE(0);
        if (length > this.#maxFrameBytes) {
          results.push(this.#poison(new ProtocolError('oversize', `A frame of ${length} bytes exceeds the ${this.#maxFrameBytes}-byte limit.`)));
          break;
        }
        this.#bodyBytes = length;
      }
      if (this.#buffered < this.#bodyBytes) break;
      const body = this.#take(this.#bodyBytes);
      this.#bodyBytes = -1;
      const result = decodeBody(this.#schema, body);
      if (!result.ok && !result.skipped) {
        results.push(this.#poison(result.error));
        break;
      }
      results.push(result);
    }
    return results;
  }

  #poison(error: ProtocolError): DecodeResult {
    this.#poisoned = true;
    this.#chunks = [];
    this.#buffered = 0;
    return { ok: false, error };
  }

  /** Removes and returns the next `n` buffered bytes; the caller has checked they are there. */
  #take(n: number): Buffer {
    if (n === 0) return Buffer.alloc(0);
    this.#buffered -= n;
    const first = this.#chunks[0];
    if (first.length >= n) {
      if (first.length === n) this.#chunks.shift();
      else this.#chunks[0] = first.subarray(n);
      return first.subarray(0, n);
    }
    const out = Buffer.allocUnsafe(n);
    let filled = 0;
    let used = 0;
    while (filled < n) {
      const chunk = this.#chunks[used];
      const part = Math.min(chunk.length, n - filled);
      chunk.copy(out, filled, 0, part);
      filled += part;
      if (part === chunk.length) used++;
      else this.#chunks[used] = chunk.subarray(part);
    }
    this.#chunks.splice(0, used);
    return out;
  }
}

function decodeBody(schema: Schema, body: Buffer): DecodeResult {
  let value: unknown;
  try {
    value = packr.unpack(body);
  } catch {
    // msgpackr's messages can quote the data it read; only the fact is reported.
    return { ok: false, error: new ProtocolError('malformed', 'A frame is not valid MessagePack.') };
  }
  const checked = validateMessage(schema, value);
  if (!(checked instanceof ProtocolError)) return { ok: true, msg: currentForm(schema, checked) };
  return checked.code === 'unknown-type' ? { ok: false, error: checked, skipped: true } : { ok: false, error: checked };
}
