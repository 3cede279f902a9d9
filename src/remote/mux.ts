// The link's framing (issue 30): one ssh stdio stream carries many a1 channels. A mux frame is
// `u32 length | u32 channel | payload`, big-endian, the length counting the payload only.
// Channel 0 carries link messages (linkSchema.ts), every other channel the byte stream of one
// inner connection. The decoder is pure (bytes in, frames out), never throws, and like
// FrameDecoder (src/protocol/frame.ts) is poisoned by the first malformed frame.
import { ProtocolError } from '../protocol/errors.js';

/**
 * The largest payload of one frame. Senders split larger writes, so a control message waits
 * behind at most 64 KiB of a surface on the same link, and a receiver buffers at most one frame.
 */
export const MAX_MUX_PAYLOAD_BYTES = 64 * 1024;
export const MUX_HEADER_BYTES = 8;
/** Channel ids are u32 on the wire. */
export const MAX_MUX_CHANNEL = 0xffff_ffff;

/** The frames that carry `data` on `channel`, each payload at most MAX_MUX_PAYLOAD_BYTES. Empty
 * data is no frame: an empty payload is never sent (the decoder refuses it). */
export function encodeMuxFrames(channel: number, data: Uint8Array): Buffer[] {
  if (!Number.isInteger(channel) || channel < 0 || channel > MAX_MUX_CHANNEL) throw new RangeError(`Channel ${channel} is not a u32.`);
  const frames: Buffer[] = [];
  for (let at = 0; at < data.length; at += MAX_MUX_PAYLOAD_BYTES) {
    const part = data.subarray(at, at + MAX_MUX_PAYLOAD_BYTES);
    const frame = Buffer.allocUnsafe(MUX_HEADER_BYTES + part.length);
    frame.writeUInt32BE(part.length, 0);
    frame.writeUInt32BE(channel, 4);
    frame.set(part, MUX_HEADER_BYTES);
    frames.push(frame);
  }
  return frames;
}

export type MuxDecodeResult = { ok: true; channel: number; payload: Buffer } | { ok: false; error: ProtocolError };

/**
 * Turns the link's byte stream into frames; chunks may split or merge frames anywhere. A frame
 * wholly inside one chunk is returned as a view of it (callers must not reuse chunks); one that
 * spans chunks is copied once into a buffer of its own size. So what it holds between calls is
 * at most one header and one payload, whatever the peer sends. After the first error it returns
 * nothing more.
 */
export class MuxDecoder {
  readonly #header = Buffer.alloc(MUX_HEADER_BYTES);
  #headerFilled = 0;
  #channel = 0;
  /** The payload being assembled across chunks, or null while a header is read. */
  #payload: Buffer | null = null;
  #payloadFilled = 0;
  #poisoned = false;

  push(chunk: Buffer): MuxDecodeResult[] {
    const results: MuxDecodeResult[] = [];
    let at = 0;
    while (!this.#poisoned && at < chunk.length) {
      if (this.#payload !== null) {
        at = this.#fillPayload(chunk, at, results);
        continue;
      }
      let length: number;
      let channel: number;
      if (this.#headerFilled === 0 && chunk.length - at >= MUX_HEADER_BYTES) {
        length = chunk.readUInt32BE(at);
        channel = chunk.readUInt32BE(at + 4);
        at += MUX_HEADER_BYTES;
      } else {
        const part = Math.min(MUX_HEADER_BYTES - this.#headerFilled, chunk.length - at);
        chunk.copy(this.#header, this.#headerFilled, at, at + part);
        this.#headerFilled += part;
        at += part;
        if (this.#headerFilled < MUX_HEADER_BYTES) break;
        this.#headerFilled = 0;
        length = this.#header.readUInt32BE(0);
        channel = this.#header.readUInt32BE(4);
      }
      const refused = this.#refusal(length);
      if (refused) {
        results.push(refused);
        break;
      }
      if (chunk.length - at >= length) {
        results.push({ ok: true, channel, payload: chunk.subarray(at, at + length) });
        at += length;
      } else {
        this.#channel = channel;
        this.#payload = Buffer.allocUnsafe(length);
        this.#payloadFilled = 0;
      }
    }
    return results;
  }

  /** The stream ended: an error if it ended inside a frame (a truncated header or payload). */
  end(): MuxDecodeResult[] {
    if (this.#poisoned || (this.#headerFilled === 0 && this.#payload === null)) return [];
    return [this.#poison(new ProtocolError('malformed', 'The link ended inside a frame.'))];
  }

  /** Copies what `chunk` holds of the payload being assembled; returns where it stopped. */
  #fillPayload(chunk: Buffer, at: number, results: MuxDecodeResult[]): number {
    const payload = this.#payload!;
    const part = Math.min(payload.length - this.#payloadFilled, chunk.length - at);
    chunk.copy(payload, this.#payloadFilled, at, at + part);
    this.#payloadFilled += part;
    if (this.#payloadFilled === payload.length) {
      results.push({ ok: true, channel: this.#channel, payload });
      this.#payload = null;
    }
    return at + part;
  }

  /** The error that poisons the stream for a frame of `length` bytes, or null when it may come. */
  #refusal(length: number): MuxDecodeResult | null {
    if (length > MAX_MUX_PAYLOAD_BYTES) {
      return this.#poison(new ProtocolError('oversize', `A link frame of ${length} bytes exceeds the ${MAX_MUX_PAYLOAD_BYTES}-byte limit.`));
    }
    // No sender makes an empty frame; a run of zero bytes (a stray write on the stream) must not
    // pass for a stream of empty frames on channel 0.
    if (length === 0) return this.#poison(new ProtocolError('malformed', 'A link frame is empty.'));
    return null;
  }

  #poison(error: ProtocolError): MuxDecodeResult {
    this.#poisoned = true;
    this.#payload = null;
    this.#headerFilled = 0;
    return { ok: false, error };
  }
}
