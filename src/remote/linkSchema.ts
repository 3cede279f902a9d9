// Channel 0 of a link (issue 30): the link's own messages, declared like every plane. They
// travel as ordinary a1 frames (src/protocol/frame.ts) in channel 0's byte stream, so a link
// message is checked, skipped when unknown and poisons the link when malformed exactly as a frame
// of any other plane does.
//
//   entry → hello {linkGen, gen, version, methods, pid, hostname, profile}; local → its own hello
//   local → open {ch, kind:'control', start}            → opened {ch, methods, started} | openFailed
//   local → open {ch, kind:'data', grant, methods}      → opened {ch, methods} | openFailed
//   either → close {ch, code?}: no bytes for ch after it; late ones are dropped
//   local → ping {n}; entry → pong {n}
import { encodeFrame, FrameDecoder } from '../protocol/frame.js';
import { ProtocolError } from '../protocol/errors.js';
import { defineSchema, type MessageOf } from '../protocol/schema.js';
import { encodeMuxFrames, MAX_MUX_CHANNEL } from './mux.js';

/** The channel of the link's own messages; inner connections use 1 and up. */
export const LINK_CHANNEL = 0;

/** A link message is small (hello's method list is the largest); a bigger one is a broken peer,
 * refused before its body is buffered. */
export const MAX_LINK_MESSAGE_BYTES = 16 * 1024;

/** What a link may do, in hello.methods: a method the peer lacks disables that feature alone. */
export const LINK_METHODS = ['control', 'data'] as const;

/** hello keeps linkGen and gen in every generation, so a peer of another one is recognised as such. */
export const linkSchema = defineSchema({
  hello: { linkGen: 'int', gen: 'int', version: 'string', methods: 'string[]', pid: 'int', hostname: 'string', profile: 'string' },
  /** kind 'control': start (start the remote server when none runs); kind 'data': grant (the
   * handle a view's reply carried) and the local client's data methods. See openRequest. */
  open: { ch: 'int', kind: 'string', start: 'boolean?', grant: 'string?', methods: 'string[]?' },
  /** methods: the inner peer's (the remote server's or holder's); started: a control channel
   * started the remote server. */
  opened: { ch: 'int', methods: 'string[]', started: 'boolean?' },
  openFailed: { ch: 'int', code: 'string', message: 'string' },
  close: { ch: 'int', code: 'string?' },
  ping: { n: 'int' },
  pong: { n: 'int' },
});

export type LinkMessage = MessageOf<typeof linkSchema>;

/** An `open` as what it asks for. */
export type OpenRequest = { ch: number; kind: 'control'; start: boolean } | { ch: number; kind: 'data'; grant: string; methods: string[] };

/** The `open` message's kind-specific fields, checked: the schema can only call them optional. */
export function openRequest(m: Extract<LinkMessage, { t: 'open' }>): OpenRequest | ProtocolError {
  if (m.ch < 1 || m.ch > MAX_MUX_CHANNEL) return new ProtocolError('bad-field', 'Field "ch" of "open" must name a channel from 1.');
  if (m.kind === 'control' && typeof m.start === 'boolean') return { ch: m.ch, kind: 'control', start: m.start };
  if (m.kind === 'data' && typeof m.grant === 'string' && Array.isArray(m.methods)) return { ch: m.ch, kind: 'data', grant: m.grant, methods: m.methods };
  return new ProtocolError('bad-field', 'An "open" must be a control open with "start" or a data open with "grant" and "methods".');
}

/** The mux frames that carry `msg` on channel 0. */
export function encodeLinkMessage(msg: LinkMessage): Buffer[] {
  return encodeMuxFrames(LINK_CHANNEL, encodeFrame(msg, MAX_LINK_MESSAGE_BYTES));
}

/** A decoder for channel 0's byte stream (the payloads of its mux frames, in order). */
export function linkMessageDecoder(): FrameDecoder {
  return new FrameDecoder(linkSchema, { maxFrameBytes: MAX_LINK_MESSAGE_BYTES });
}
