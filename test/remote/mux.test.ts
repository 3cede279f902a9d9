import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propertyRuns } from '../helpers/runs.js';
import { chunkedAt } from '../helpers/chunks.js';
import { PROTOCOL_ERROR_CODES, ProtocolError } from '../../src/protocol/errors.js';
import { encodeMuxFrames, MAX_MUX_CHANNEL, MAX_MUX_PAYLOAD_BYTES, MUX_HEADER_BYTES, MuxDecoder, type MuxDecodeResult } from '../../src/remote/mux.js';

function decodeAll(chunks: Buffer[], end = false): MuxDecodeResult[] {
  const decoder = new MuxDecoder();
  const results = chunks.flatMap((chunk) => decoder.push(chunk));
  return end ? [...results, ...decoder.end()] : results;
}

/** Each frame as [channel, payload as hex]; throws on an error result. */
function frames(results: MuxDecodeResult[]): [number, string][] {
  return results.map((r) => {
    if (!r.ok) throw r.error;
    return [r.channel, r.payload.toString('hex')];
  });
}

/** What each channel received, concatenated, in order of first appearance. */
function byChannel(results: MuxDecodeResult[]): Map<number, string> {
  const out = new Map<number, string>();
  for (const [channel, hex] of frames(results)) out.set(channel, (out.get(channel) ?? '') + hex);
  return out;
}

function header(length: number, channel: number): Buffer {
  const h = Buffer.alloc(MUX_HEADER_BYTES);
  h.writeUInt32BE(length, 0);
  h.writeUInt32BE(channel, 4);
  return h;
}

/** The fuzz invariant: only results, at most one error, last, typed. */
function expectWellFormed(results: MuxDecodeResult[]): void {
  results.forEach((r, index) => {
    if (r.ok) {
      expect(r.payload.length).toBeGreaterThan(0);
      expect(r.payload.length).toBeLessThanOrEqual(MAX_MUX_PAYLOAD_BYTES);
      return;
    }
    expect(r.error).toBeInstanceOf(ProtocolError);
    expect(PROTOCOL_ERROR_CODES).toContain(r.error.code);
    expect(index).toBe(results.length - 1);
  });
}

describe('encodeMuxFrames', () => {
  it('writes u32 length | u32 channel | payload, big-endian', () => {
    const [frame, ...more] = encodeMuxFrames(0x01020304, Buffer.from('hi'));
    expect(more).toEqual([]);
    expect(frame.toString('hex')).toBe('00000002' + '01020304' + Buffer.from('hi').toString('hex'));
  });

  it('splits a write larger than one payload into frames of the same channel, in order', () => {
    const data = Buffer.alloc(2 * MAX_MUX_PAYLOAD_BYTES + 1);
    for (let i = 0; i < data.length; i++) data[i] = i % 251;
    const out = encodeMuxFrames(7, data);
    expect(out.map((f) => [f.readUInt32BE(0), f.readUInt32BE(4)])).toEqual([
      [MAX_MUX_PAYLOAD_BYTES, 7],
      [MAX_MUX_PAYLOAD_BYTES, 7],
      [1, 7],
    ]);
    expect(Buffer.concat(out.map((f) => f.subarray(MUX_HEADER_BYTES))).equals(data)).toBe(true);
    expect(encodeMuxFrames(7, data.subarray(0, MAX_MUX_PAYLOAD_BYTES))).toHaveLength(1);
  });

  it('makes no frame of empty data, and refuses a channel that is not a u32', () => {
    expect(encodeMuxFrames(1, Buffer.alloc(0))).toEqual([]);
    expect(encodeMuxFrames(MAX_MUX_CHANNEL, Buffer.from('x'))).toHaveLength(1);
    for (const bad of [-1, 1.5, MAX_MUX_CHANNEL + 1, Number.NaN]) expect(() => encodeMuxFrames(bad, Buffer.from('x'))).toThrow(RangeError);
  });
});

describe('MuxDecoder', () => {
  const stream = Buffer.concat([...encodeMuxFrames(0, Buffer.from('link')), ...encodeMuxFrames(3, Buffer.from('data on three')), ...encodeMuxFrames(1, Buffer.from([0, 255]))]);
  const expected: [number, string][] = [
    [0, Buffer.from('link').toString('hex')],
    [3, Buffer.from('data on three').toString('hex')],
    [1, '00ff'],
  ];

  it('decodes frames split at every byte position', () => {
    for (let cut = 0; cut <= stream.length; cut++) {
      expect(frames(decodeAll([stream.subarray(0, cut), stream.subarray(cut)], true)), `cut at ${cut}`).toEqual(expected);
    }
  });

  it('decodes frames fed one byte at a time, and merged in one chunk', () => {
    expect(frames(decodeAll([...stream].map((b) => Buffer.from([b])), true))).toEqual(expected);
    expect(frames(decodeAll([stream], true))).toEqual(expected);
  });

  it('gives a frame wholly inside a chunk as a view of it, without copying', () => {
    const [result] = decodeAll([stream]);
    expect(result.ok && result.payload.buffer).toBe(stream.buffer);
  });

  it('carries any writes on any channels under any chunking', () => {
    const write = fc.record({ channel: fc.integer({ min: 0, max: MAX_MUX_CHANNEL }), data: fc.uint8Array({ minLength: 1, maxLength: 300 }) });
    fc.assert(
      fc.property(fc.array(write, { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 30 }), (writes, cuts) => {
        const sent = Buffer.concat(writes.flatMap((w) => encodeMuxFrames(w.channel, w.data)));
        const want = new Map<number, string>();
        for (const w of writes) want.set(w.channel, (want.get(w.channel) ?? '') + Buffer.from(w.data).toString('hex'));
        expect(byChannel(decodeAll(chunkedAt(sent, cuts), true))).toEqual(want);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('reassembles a write split over several frames, fed in small chunks, in linear time', () => {
    const data = Buffer.alloc(3 * MAX_MUX_PAYLOAD_BYTES + 5, 0xab);
    data[MAX_MUX_PAYLOAD_BYTES + 17] = 1;
    const sent = Buffer.concat(encodeMuxFrames(9, data));
    const decoder = new MuxDecoder();
    const results: MuxDecodeResult[] = [];
    for (let at = 0; at < sent.length; at += 3) results.push(...decoder.push(sent.subarray(at, at + 3)));
    expect(results).toHaveLength(4);
    expect(byChannel(results).get(9)).toBe(data.toString('hex'));
  });

  it('refuses a frame over the limit from its header alone, and is poisoned after', () => {
    const decoder = new MuxDecoder();
    expect(frames(decoder.push(header(MAX_MUX_PAYLOAD_BYTES, 1)))).toEqual([]);
    const fresh = new MuxDecoder();
    const results = fresh.push(Buffer.concat([...encodeMuxFrames(1, Buffer.from('ok')), header(MAX_MUX_PAYLOAD_BYTES + 1, 1)]));
    expect(results.map((r) => (r.ok ? 'frame' : r.error.code))).toEqual(['frame', 'oversize']);
    expect(fresh.push(Buffer.concat(encodeMuxFrames(1, Buffer.from('later'))))).toEqual([]);
    expect(fresh.end()).toEqual([]);
  });

  it('refuses an empty frame: a run of zero bytes is not a stream of frames', () => {
    const [result, ...rest] = decodeAll([Buffer.alloc(64)]);
    expect(!result.ok && result.error.code).toBe('malformed');
    expect(rest).toEqual([]);
  });

  it('reports a stream that ends inside a header or a payload', () => {
    const frame = encodeMuxFrames(2, Buffer.from('payload'))[0];
    for (const cut of [1, MUX_HEADER_BYTES - 1, MUX_HEADER_BYTES, frame.length - 1]) {
      const results = decodeAll([frame.subarray(0, cut)], true);
      expect(results.map((r) => (r.ok ? 'frame' : r.error.code)), `cut at ${cut}`).toEqual(['malformed']);
    }
    expect(decodeAll([frame], true).map((r) => r.ok)).toEqual([true]);
  });

  it('survives random bytes in random chunks (fuzz)', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 20 }), (chunks) => {
        let results: MuxDecodeResult[] = [];
        expect(() => {
          results = decodeAll(chunks.map((c) => Buffer.from(c)), true);
        }).not.toThrow();
        expectWellFormed(results);
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('survives mutated valid streams (fuzz)', () => {
    const mutation = fc.record({ at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }), insert: fc.boolean() });
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 5 }), (mutations, cuts) => {
        let bytes = Buffer.from(stream);
        for (const m of mutations) {
          const at = m.at % (bytes.length + 1);
          if (m.insert) bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([m.byte]), bytes.subarray(at)]);
          else if (at < bytes.length) bytes[at] = m.byte;
        }
        expectWellFormed(decodeAll(chunkedAt(bytes, cuts), true));
      }),
      { numRuns: propertyRuns(3000) },
    );
  });
});
