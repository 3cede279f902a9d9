import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propertyRuns } from '../helpers/runs.js';
import { chunkedAt } from '../helpers/chunks.js';
import { Packr } from 'msgpackr';
import { ProtocolError, PROTOCOL_ERROR_CODES } from '../../src/protocol/errors.js';
import { encodeFrame, FrameDecoder, MAX_FRAME_BYTES, type DecodeResult } from '../../src/protocol/frame.js';
import { defineSchema } from '../../src/protocol/schema.js';

const schema = defineSchema({
  all: { s: 'string', n: 'number', i: 'int', b: 'boolean', y: 'bytes', a: 'any', l: 'string[]', o: 'object', opt: 'string?' },
  ping: { n: 'int' },
  blob: { y: 'bytes' },
});

const sample = {
  t: 'all',
  s: 'héllo ✓ 漢字',
  n: -0.25,
  i: 2 ** 40,
  b: true,
  y: Buffer.from([0, 1, 2, 254, 255]),
  a: { nested: [1, null, 'x'] },
  l: ['a', ''],
  o: { cols: 80, rows: 24 },
  opt: null,
};

/** Raw msgpack in the same settings as the codec, to build frames the encoder would refuse. */
const rawPackr = new Packr({ useRecords: false, mapsAsObjects: true });
function rawFrame(body: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length, 0);
  return Buffer.concat([header, body]);
}

function decodeAll(chunks: Buffer[]): DecodeResult[] {
  const decoder = new FrameDecoder(schema);
  return chunks.flatMap((chunk) => decoder.push(chunk));
}

function messages(results: DecodeResult[]): unknown[] {
  return results.map((r) => {
    if (!r.ok) throw r.error;
    return r.msg;
  });
}

/** The fuzz invariant: only results, at most one error, the error last and typed. */
function expectWellFormed(results: DecodeResult[]): void {
  results.forEach((r, index) => {
    if (r.ok) return;
    expect(r.error).toBeInstanceOf(ProtocolError);
    expect(PROTOCOL_ERROR_CODES).toContain(r.error.code);
    // Only a frame of an unknown type is skipped; any other error ends the stream.
    if (r.skipped) expect(r.error.code).toBe('unknown-type');
    else expect(index).toBe(results.length - 1);
  });
}

describe('encodeFrame / FrameDecoder', () => {
  it('round-trips every field type, binary included', () => {
    const [msg] = messages(decodeAll([encodeFrame(sample)]));
    expect(msg).toEqual(sample);
    const y = (msg as { y: unknown }).y;
    expect(y).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(y as Uint8Array).equals(sample.y)).toBe(true);
  });

  it('prefixes the body with its 4-byte big-endian length', () => {
    const frame = encodeFrame({ t: 'ping', n: 1 });
    expect(frame.readUInt32BE(0)).toBe(frame.length - 4);
  });

  it('decodes frames split at every byte position', () => {
    const stream = Buffer.concat([encodeFrame(sample), encodeFrame({ t: 'ping', n: 7 })]);
    for (let cut = 0; cut <= stream.length; cut++) {
      const got = messages(decodeAll([stream.subarray(0, cut), stream.subarray(cut)]));
      expect(got, `cut at ${cut}`).toEqual([sample, { t: 'ping', n: 7 }]);
    }
  });

  it('decodes frames fed one byte at a time', () => {
    const stream = Buffer.concat([encodeFrame(sample), encodeFrame({ t: 'ping', n: 7 })]);
    const bytes = [...stream].map((b) => Buffer.from([b]));
    expect(messages(decodeAll(bytes))).toEqual([sample, { t: 'ping', n: 7 }]);
  });

  it('decodes many frames coalesced in one chunk, in order', () => {
    const frames = Array.from({ length: 100 }, (_, n) => encodeFrame({ t: 'ping', n }));
    const got = messages(decodeAll([Buffer.concat(frames)]));
    expect(got).toEqual(Array.from({ length: 100 }, (_, n) => ({ t: 'ping', n })));
  });

  it('decodes any sequence of messages under any chunking', () => {
    const msg = fc.oneof(
      fc.record({ t: fc.constant('ping'), n: fc.integer() }),
      fc.record({ t: fc.constant('blob'), y: fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)) }),
    );
    fc.assert(
      fc.property(fc.array(msg, { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 30 }), (msgs, cuts) => {
        const stream = Buffer.concat(msgs.map((m) => encodeFrame(m)));
        expect(messages(decodeAll(chunkedAt(stream, cuts)))).toEqual(msgs);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('assembles a large frame from many small chunks in linear time', () => {
    // Re-concatenating the buffer on every 64-byte chunk would copy ~400 GB here: far past the
    // deadline, which a linear decoder meets with a wide margin.
    const payload = Buffer.alloc(7 * 1024 * 1024, 0xab);
    payload[12345] = 1;
    const frame = encodeFrame({ t: 'blob', y: payload });
    const decoder = new FrameDecoder(schema);
    const results: DecodeResult[] = [];
    for (let at = 0; at < frame.length; at += 64) results.push(...decoder.push(frame.subarray(at, at + 64)));
    const [msg] = messages(results);
    expect(Buffer.from((msg as { y: Uint8Array }).y).equals(payload)).toBe(true);
  }, 10_000);

  it('accepts a frame of exactly the limit and refuses one byte more from the header alone', () => {
    const body = rawPackr.pack({ t: 'blob', y: Buffer.alloc(100) });
    expect(messages(new FrameDecoder(schema, { maxFrameBytes: body.length }).push(rawFrame(body)))).toHaveLength(1);
    const header = rawFrame(body).subarray(0, 4);
    const [result] = new FrameDecoder(schema, { maxFrameBytes: body.length - 1 }).push(header);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('oversize');
  });

  it('defaults the limit to MAX_FRAME_BYTES', () => {
    const header = Buffer.alloc(4);
    header.writeUInt32BE(MAX_FRAME_BYTES + 1, 0);
    const [result] = new FrameDecoder(schema).push(header);
    expect(!result.ok && result.error.code).toBe('oversize');
    header.writeUInt32BE(MAX_FRAME_BYTES, 0);
    expect(new FrameDecoder(schema).push(header)).toEqual([]);
  });

  it('refuses to encode a message over the limit', () => {
    expect(() => encodeFrame({ t: 'blob', y: Buffer.alloc(200) }, 100)).toThrow(ProtocolError);
    try {
      encodeFrame({ t: 'blob', y: Buffer.alloc(200) }, 100);
    } catch (err) {
      expect((err as ProtocolError).code).toBe('oversize');
    }
  });

  it('is poisoned after an error: messages before it are returned, nothing after', () => {
    const bad = Buffer.from([0, 0, 0, 1, 0x81]); // a one-entry map whose entry is missing
    const decoder = new FrameDecoder(schema);
    const results = decoder.push(Buffer.concat([encodeFrame({ t: 'ping', n: 1 }), bad, encodeFrame({ t: 'ping', n: 2 })]));
    expect(results.map((r) => (r.ok ? r.msg.t : r.error.code))).toEqual(['ping', 'malformed']);
    expect(decoder.push(encodeFrame({ t: 'ping', n: 3 }))).toEqual([]);
  });

  it('skips a frame of an unknown type whole and goes on decoding (SPEC §6: a newer peer\'s message disables only its operation)', () => {
    const results = decodeAll([
      Buffer.concat([encodeFrame({ t: 'ping', n: 1 }), rawFrame(rawPackr.pack({ t: 'future', x: [1, 2, 3], y: 'text' })), encodeFrame({ t: 'ping', n: 2 })]),
      rawFrame(rawPackr.pack({ t: '__proto__' })),
      encodeFrame({ t: 'ping', n: 3 }),
    ]);
    expect(results.map((r) => (r.ok ? r.msg.n : r.skipped ? 'skipped' : r.error.code))).toEqual([1, 'skipped', 2, 'skipped', 3]);
  });

  it('classifies bad bodies', () => {
    const cases: [Buffer, string][] = [
      [rawFrame(Buffer.alloc(0)), 'malformed'],
      [rawFrame(Buffer.concat([rawPackr.pack({ t: 'ping', n: 1 }), Buffer.from([1])])), 'malformed'],
      [rawFrame(rawPackr.pack({ t: 'ping', n: 1 }).subarray(0, 5)), 'malformed'],
      [rawFrame(rawPackr.pack([1, 2])), 'not-object'],
      [rawFrame(rawPackr.pack('ping')), 'not-object'],
      [rawFrame(rawPackr.pack({ n: 1 })), 'bad-field'],
      [rawFrame(rawPackr.pack({ t: 'nope' })), 'unknown-type'],
      [rawFrame(rawPackr.pack({ t: '__proto__' })), 'unknown-type'],
      [rawFrame(rawPackr.pack({ t: 'ping', n: 'one' })), 'bad-field'],
    ];
    for (const [frame, code] of cases) {
      const [result] = decodeAll([frame]);
      expect(!result.ok && result.error.code, code).toBe(code);
    }
  });

  it('never quotes frame content in a malformed error', () => {
    const body = Buffer.concat([rawPackr.pack({ t: 'ping', n: 1, secret: 'hunter2' }), Buffer.from([1])]);
    const [result] = decodeAll([rawFrame(body)]);
    expect(!result.ok && result.error.message).not.toContain('hunter2');
  });

  it('survives random bytes in random chunks (fuzz)', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 20 }), (chunks) => {
        let results: DecodeResult[] = [];
        expect(() => {
          results = decodeAll(chunks.map((c) => Buffer.from(c)));
        }).not.toThrow();
        expectWellFormed(results);
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('survives random bodies behind a correct length (fuzz)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (body) => {
        const results = decodeAll([rawFrame(Buffer.from(body))]);
        expect(results).toHaveLength(1);
        expectWellFormed(results);
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('survives mutated valid frames (fuzz), and a fresh decoder still works afterwards', () => {
    const valid = Buffer.concat([encodeFrame(sample), encodeFrame({ t: 'ping', n: 5 })]);
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
      fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
    );
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 6 }), fc.nat(), (mutations, split) => {
        let bytes = Buffer.from(valid);
        for (const m of mutations) {
          const at = m.at % (bytes.length + 1);
          if (m.kind === 'set' && at < bytes.length) bytes[at] = m.byte;
          else if (m.kind === 'cut') bytes = bytes.subarray(0, at);
          else if (m.kind === 'insert') bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([m.byte]), bytes.subarray(at)]);
        }
        const cut = split % (bytes.length + 1);
        let results: DecodeResult[] = [];
        expect(() => {
          results = decodeAll([bytes.subarray(0, cut), bytes.subarray(cut)]);
        }).not.toThrow();
        expectWellFormed(results);
        expect(messages(decodeAll([encodeFrame({ t: 'ping', n: 9 })]))).toEqual([{ t: 'ping', n: 9 }]);
      }),
      { numRuns: propertyRuns(3000) },
    );
  });

  it('survives deeply nested bodies', () => {
    const nested = rawFrame(Buffer.alloc(1024 * 1024, 0x91)); // fixarray(1) inside fixarray(1) ...
    const results = decodeAll([nested]);
    expectWellFormed(results);
    expect(results).toHaveLength(1);
    expect(messages(decodeAll([encodeFrame({ t: 'ping', n: 1 })]))).toEqual([{ t: 'ping', n: 1 }]);
  });
});
