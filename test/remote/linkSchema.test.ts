import { describe, expect, it } from 'vitest';
import { Packr } from 'msgpackr';
import { encodeFrame, type DecodeResult } from '../../src/protocol/frame.js';
import { ProtocolError } from '../../src/protocol/errors.js';
import { encodeMuxFrames, MuxDecoder } from '../../src/remote/mux.js';
import { encodeLinkMessage, LINK_CHANNEL, linkMessageDecoder, MAX_LINK_MESSAGE_BYTES, openRequest, type LinkMessage } from '../../src/remote/linkSchema.js';

/** Channel 0's messages in a link stream, as the link reads them: mux frames, then a1 frames. */
function linkMessages(stream: Buffer): DecodeResult[] {
  const mux = new MuxDecoder();
  const decoder = linkMessageDecoder();
  return mux.push(stream).flatMap((r) => {
    if (!r.ok) throw r.error;
    return r.channel === LINK_CHANNEL ? decoder.push(r.payload) : [];
  });
}

const every: LinkMessage[] = [
  { t: 'hello', linkGen: 1, gen: 1, version: '0.1.0', methods: ['control', 'data'], pid: 4242, hostname: 'gpu', profile: 'default' },
  { t: 'open', ch: 1, kind: 'control', start: true },
  { t: 'open', ch: 2, kind: 'data', grant: 'b64-grant', methods: ['promptOffer'] },
  { t: 'opened', ch: 1, methods: ['passive'], started: false },
  { t: 'opened', ch: 2, methods: [] },
  { t: 'openFailed', ch: 2, code: 'generation', message: 'The server is another version.' },
  { t: 'close', ch: 1 },
  { t: 'close', ch: 2, code: 'gone' },
  { t: 'ping', n: 7 },
  { t: 'pong', n: 7 },
];

describe('channel 0: the link messages', () => {
  it('carries every message as a1 frames on channel 0, between other channels\' bytes', () => {
    const stream = Buffer.concat(every.flatMap((m, i) => [...encodeLinkMessage(m), ...encodeMuxFrames(i + 1, Buffer.from('inner bytes'))]));
    expect(linkMessages(stream).map((r) => (r.ok ? r.msg : r.error))).toEqual(every);
  });

  it('reads an open as what it asks for', () => {
    expect(openRequest({ t: 'open', ch: 1, kind: 'control', start: false })).toEqual({ ch: 1, kind: 'control', start: false });
    expect(openRequest({ t: 'open', ch: 9, kind: 'data', grant: 'g', methods: ['a'] })).toEqual({ ch: 9, kind: 'data', grant: 'g', methods: ['a'] });
  });

  it('refuses an open on channel 0 or past a u32, or without its kind\'s fields', () => {
    const bad: Extract<LinkMessage, { t: 'open' }>[] = [
      { t: 'open', ch: 0, kind: 'control', start: true },
      { t: 'open', ch: 2 ** 32, kind: 'control', start: true },
      { t: 'open', ch: 1, kind: 'control' },
      { t: 'open', ch: 1, kind: 'data', methods: [] },
      { t: 'open', ch: 1, kind: 'data', grant: 'g' },
      { t: 'open', ch: 1, kind: 'other', start: true },
    ];
    for (const m of bad) {
      const result = openRequest(m);
      expect(result, JSON.stringify(m)).toBeInstanceOf(ProtocolError);
      expect((result as ProtocolError).code).toBe('bad-field');
    }
  });

  it('skips a message of a type it does not know, and keeps fields it does not know', () => {
    const raw = new Packr({ useRecords: false, mapsAsObjects: true });
    const future = Buffer.from(raw.pack({ t: 'frameAck', ch: 1 }));
    const header = Buffer.alloc(4);
    header.writeUInt32BE(future.length, 0);
    const stream = Buffer.concat([
      ...encodeMuxFrames(LINK_CHANNEL, Buffer.concat([header, future])),
      ...encodeLinkMessage({ t: 'ping', n: 1, later: 'field' } as LinkMessage),
    ]);
    expect(linkMessages(stream).map((r) => (r.ok ? r.msg : r.skipped ? 'skipped' : r.error.code))).toEqual(['skipped', { t: 'ping', n: 1, later: 'field' }]);
  });

  it('poisons the link on a malformed or oversize message, as every plane does', () => {
    const wrongField = encodeMuxFrames(LINK_CHANNEL, encodeFrame({ t: 'ping', n: 'one' }));
    expect(linkMessages(Buffer.concat([...wrongField, ...encodeLinkMessage({ t: 'ping', n: 2 })])).map((r) => (r.ok ? r.msg.t : r.error.code))).toEqual(['bad-field']);
    const header = Buffer.alloc(4);
    header.writeUInt32BE(MAX_LINK_MESSAGE_BYTES + 1, 0);
    expect(linkMessages(Buffer.concat(encodeMuxFrames(LINK_CHANNEL, header))).map((r) => !r.ok && r.error.code)).toEqual(['oversize']);
    expect(() => encodeLinkMessage({ t: 'openFailed', ch: 1, code: 'x', message: 'y'.repeat(MAX_LINK_MESSAGE_BYTES) })).toThrow(ProtocolError);
  });
});
