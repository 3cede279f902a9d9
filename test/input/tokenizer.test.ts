import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propertyRuns } from '../helpers/runs.js';
import {
  ESC_TIMEOUT_MS,
  InputTokenizer,
  MAX_SEQUENCE_LENGTH,
  MAX_STRING_LENGTH,
  type Token,
} from '../../src/input/tokenizer.js';

/** Feeds chunks at time 0, then lets every timeout expire. */
function tokenize(chunks: (string | Buffer)[]): Token[] {
  const t = new InputTokenizer();
  const out: Token[] = [];
  for (const c of chunks) out.push(...t.push(c, 0));
  out.push(...t.flush(ESC_TIMEOUT_MS));
  return out;
}

/** Text runs may be cut anywhere a read ends; everything else must come out identical. */
function mergeText(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (const tok of tokens) {
    const last = out[out.length - 1];
    if (tok.kind === 'text' && last?.kind === 'text') out[out.length - 1] = { kind: 'text', raw: last.raw + tok.raw };
    else out.push(tok);
  }
  return out;
}

function splitAt(buf: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts)].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let prev = 0;
  for (const p of points) {
    chunks.push(buf.subarray(prev, p));
    prev = p;
  }
  chunks.push(buf.subarray(prev));
  return chunks;
}

const tok = (kind: Token['kind'], raw: string): Token => ({ kind, raw });

describe('InputTokenizer, one chunk', () => {
  const cases: [string, string, Token[]][] = [
    ['printable run', 'abc é', [tok('text', 'abc é')]],
    ['controls one by one', 'a\r\t\x7f\x03b', [
      tok('text', 'a'), tok('control', '\r'), tok('control', '\t'), tok('control', '\x7f'),
      tok('control', '\x03'), tok('text', 'b'),
    ]],
    ['arrow', '\x1b[A', [tok('csi', '\x1b[A')]],
    ['ctrl+up', '\x1b[1;5A', [tok('csi', '\x1b[1;5A')]],
    ['delete then text', '\x1b[3~x', [tok('csi', '\x1b[3~'), tok('text', 'x')]],
    ['SGR mouse press and release', '\x1b[<0;10;5M\x1b[<0;10;5m', [
      tok('csi', '\x1b[<0;10;5M'), tok('csi', '\x1b[<0;10;5m'),
    ]],
    ['legacy mouse', '\x1b[M !!z', [tok('csi', '\x1b[M !!'), tok('text', 'z')]],
    ['SS3 F1', '\x1bOP', [tok('ss3', '\x1bOP')]],
    ['alt+a', '\x1ba', [tok('esc', '\x1ba')]],
    ['alt+é', '\x1bé', [tok('esc', '\x1bé')]],
    ['alt+enter', '\x1b\r', [tok('esc', '\x1b\r')]],
    ['alt+escape', '\x1b\x1b', [tok('esc', '\x1b\x1b')]],
    ['alt-prefixed arrow', '\x1b\x1b[A', [tok('csi', '\x1b\x1b[A')]],
    ['focus in and out', '\x1b[I\x1b[O', [tok('focus', '\x1b[I'), tok('focus', '\x1b[O')]],
    ['paste', '\x1b[200~a\x1b[Ab\r\x1b[201~c', [tok('paste', '\x1b[200~a\x1b[Ab\r\x1b[201~'), tok('text', 'c')]],
    ['OSC ended by BEL', '\x1b]11;rgb:0/0/0\x07x', [tok('osc', '\x1b]11;rgb:0/0/0\x07'), tok('text', 'x')]],
    ['OSC ended by ST', '\x1b]10;rgb:f/f/f\x1b\\x', [tok('osc', '\x1b]10;rgb:f/f/f\x1b\\'), tok('text', 'x')]],
    ['DCS', '\x1bP>|xterm(1)\x1b\\', [tok('dcs', '\x1bP>|xterm(1)\x1b\\')]],
    ['OSC cut short by another sequence', '\x1b]11;rg\x1b[A', [tok('osc', '\x1b]11;rg'), tok('csi', '\x1b[A')]],
    ['lone ESC at the end', 'a\x1b', [tok('text', 'a'), tok('esc', '\x1b')]],
    ['ESC [ at the end is alt+[', '\x1b[', [tok('esc', '\x1b[')]],
    ['ESC O at the end is alt+O', '\x1bO', [tok('esc', '\x1bO')]],
    ['ESC ] before a control is alt+]', '\x1b]\r', [tok('esc', '\x1b]'), tok('control', '\r')]],
    ['ESC [ before ESC is alt+[', '\x1b[\x1bb', [tok('esc', '\x1b['), tok('esc', '\x1bb')]],
    ['broken CSI', '\x1b[12\rx', [tok('unknown', '\x1b[12'), tok('control', '\r'), tok('text', 'x')]],
    ['partial CSI at the end', '\x1b[1;', [tok('unknown', '\x1b[1;')]],
    ['C1 control', 'a\u009bb', [tok('text', 'a'), tok('control', '\u009b'), tok('text', 'b')]],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    expect(tokenize([Buffer.from(input)])).toEqual(expected);
  });

  it('cuts an endless CSI at MAX_SEQUENCE_LENGTH', () => {
    const long = '\x1b[' + '1'.repeat(MAX_SEQUENCE_LENGTH * 2) + 'A';
    const tokens = tokenize([long]);
    expect(tokens[0]).toEqual(tok('unknown', long.slice(0, MAX_SEQUENCE_LENGTH)));
    expect(tokens.map((t) => t.raw).join('')).toBe(long);
  });
});

describe('InputTokenizer, split reads', () => {
  const composite = Buffer.from(
    'hé\x1b[1;5A\x1bOP\x1ba\x1b\r\x1b[<35;120;40M\x1b[M !"\x1b[200~pa\x1b[201ste\x1b[201~' +
    '\x1b]11;rgb:1/2/3\x1b\\\x1b[I🙂\x1b\x1b[B\x1bP1$r0m\x07z\x1b',
  );

  it('gives the same tokens for every split position of a composite input', () => {
    const whole = mergeText(tokenize([composite]));
    expect(whole.map((t) => t.kind)).toEqual([
      'text', 'csi', 'ss3', 'esc', 'esc', 'csi', 'csi', 'paste', 'osc', 'focus', 'text', 'csi', 'dcs', 'text', 'esc',
    ]);
    for (let cut = 1; cut < composite.length; cut++) {
      expect(mergeText(tokenize(splitAt(composite, [cut]))), `cut at ${cut}`).toEqual(whole);
    }
  });

  it('gives the same tokens one byte at a time', () => {
    const bytes = [...composite].map((b) => Buffer.from([b]));
    expect(mergeText(tokenize(bytes))).toEqual(mergeText(tokenize([composite])));
  });

  // Pieces that make up keys, mouse reports, pastes, strings, multi-byte text and garbage.
  const piece = fc.oneof(
    fc.constantFrom(
      '\x1b', '[', 'O', ']', 'P', '\\', '\x07', ';', '<', 'M', 'm', '~', 'A', '1', '5', 'a', ' ', '\r', '\x7f',
      '\x1b[200~', '\x1b[201~', '\x1b[201', '\x1b[A', '\x1b[<0;3;4M', 'é', '🙂', '中',
    ).map((s) => Buffer.from(s)),
    fc.uint8Array({ minLength: 1, maxLength: 4 }).map((a) => Buffer.from(a)),
  );
  const input = fc.array(piece, { maxLength: 40 }).map((ps) => Buffer.concat(ps));
  const chunked = input.chain((buf) =>
    fc.tuple(fc.constant(buf), fc.array(fc.integer({ min: 0, max: buf.length }), { maxLength: 12 })),
  );

  it('any chunking of a byte string yields the same tokens as one chunk (property)', () => {
    fc.assert(
      fc.property(chunked, ([buf, cuts]) => {
        expect(mergeText(tokenize(splitAt(buf, cuts)))).toEqual(mergeText(tokenize([buf])));
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('tokens keep every character they were given (property)', () => {
    // The suffix closes a paste (PASTE_END) or an OSC/DCS string (its ESC) left open.
    const close = '\x1b[201~\x07';
    fc.assert(
      fc.property(input, (buf) => {
        const decoded = new TextDecoder('utf-8', { ignoreBOM: true }).decode(buf) + close;
        expect(tokenize([buf, close]).map((t) => t.raw).join('')).toBe(decoded);
      }),
      { numRuns: propertyRuns(1000) },
    );
  });

  it('reassembles a paste split across many reads into one token', () => {
    const content = 'line 1\r\x1b[A\x1b[20 \x1b[201 not the end\r' + 'x'.repeat(10_000) + 'é🙂';
    const data = Buffer.from('\x1b[200~' + content + '\x1b[201~after');
    const chunks: Buffer[] = [];
    // Five-byte reads: PASTE_END (six bytes) is always split.
    for (let i = 0; i < data.length; i += 5) chunks.push(data.subarray(i, i + 5));
    const t = new InputTokenizer();
    const out: Token[] = [];
    chunks.forEach((c, i) => {
      out.push(...t.push(c, 0));
      // Once PASTE_START is complete (the second read) nothing waits on the ESC timeout.
      if (i > 0 && out.length === 0) expect(t.pendingTimeoutMs).toBeNull();
    });
    expect(mergeText(out)).toEqual([tok('paste', '\x1b[200~' + content + '\x1b[201~'), tok('text', 'after')]);
  });

  it('waits for the rest of a UTF-8 character split at any byte', () => {
    for (const ch of ['é', '中', '🙂']) {
      const bytes = Buffer.from('a' + ch + 'b');
      for (let cut = 1; cut < bytes.length; cut++) {
        const t = new InputTokenizer();
        const first = t.push(bytes.subarray(0, cut), 0);
        expect(first.map((x) => x.raw).join('')).not.toContain('\ufffd');
        const all = mergeText([...first, ...t.push(bytes.subarray(cut), 0)]);
        expect(all).toEqual([tok('text', 'a' + ch + 'b')]);
      }
      const alt = Buffer.from('\x1b' + ch);
      for (let cut = 1; cut < alt.length; cut++) {
        expect(tokenize(splitAt(alt, [cut]))).toEqual([tok('esc', '\x1b' + ch)]);
      }
    }
  });
});

describe('InputTokenizer, ESC timeout', () => {
  it('emits a lone ESC only after ESC_TIMEOUT_MS without follow-up', () => {
    expect(ESC_TIMEOUT_MS).toBeGreaterThanOrEqual(25);
    expect(ESC_TIMEOUT_MS).toBeLessThanOrEqual(50);
    const t = new InputTokenizer();
    expect(t.pendingTimeoutMs).toBeNull();
    expect(t.push('\x1b', 1000)).toEqual([]);
    expect(t.pendingTimeoutMs).toBe(ESC_TIMEOUT_MS);
    expect(t.flush(1010)).toEqual([]);
    expect(t.pendingTimeoutMs).toBe(ESC_TIMEOUT_MS - 10);
    expect(t.flush(1000 + ESC_TIMEOUT_MS)).toEqual([tok('esc', '\x1b')]);
    expect(t.pendingTimeoutMs).toBeNull();
    expect(t.push('a', 1100)).toEqual([tok('text', 'a')]);
  });

  it('takes its window from the caller (the escapeTimeoutMs setting)', () => {
    const wide = new InputTokenizer(500);
    expect(wide.push('\x1b', 0)).toEqual([]);
    expect(wide.pendingTimeoutMs).toBe(500);
    expect(wide.flush(499)).toEqual([]);
    expect(wide.push('.', 499)).toEqual([tok('esc', '\x1b.')]);
    const none = new InputTokenizer(0);
    expect(none.push('\x1b', 0)).toEqual([]);
    expect(none.pendingTimeoutMs).toBe(0);
    expect(none.flush(0)).toEqual([tok('esc', '\x1b')]);
    // Bytes that arrive together are one key whatever the window.
    expect(none.push('\x1b.', 1)).toEqual([tok('esc', '\x1b.')]);
  });

  it('joins ESC with a follow-up that arrives in time', () => {
    const t = new InputTokenizer();
    expect(t.push('\x1b', 0)).toEqual([]);
    expect(t.push('a', ESC_TIMEOUT_MS - 1)).toEqual([tok('esc', '\x1ba')]);
  });

  it('keeps ESC and the next key apart once the timeout has fired', () => {
    const t = new InputTokenizer();
    t.push('\x1b', 0);
    expect(t.flush(ESC_TIMEOUT_MS)).toEqual([tok('esc', '\x1b')]);
    expect(t.push('a', ESC_TIMEOUT_MS + 1)).toEqual([tok('text', 'a')]);
  });

  it('restarts the wait when more of a sequence arrives', () => {
    const t = new InputTokenizer();
    t.push('\x1b[1', 0);
    t.push(';5', 20);
    expect(t.flush(ESC_TIMEOUT_MS)).toEqual([]);
    expect(t.pendingTimeoutMs).toBe(20);
    expect(t.push('A', 40)).toEqual([tok('csi', '\x1b[1;5A')]);
    expect(t.pendingTimeoutMs).toBeNull();
  });

  it('does not time out an unfinished paste or OSC string', () => {
    const t = new InputTokenizer();
    t.push('\x1b[200~abc', 0);
    expect(t.pendingTimeoutMs).toBeNull();
    expect(t.flush(10_000)).toEqual([]);
    const u = new InputTokenizer();
    u.push('\x1b]11;rgb', 0);
    expect(u.pendingTimeoutMs).toBeNull();
    expect(u.flush(10_000)).toEqual([]);
    expect(u.push(':0/0/0\x07', 10_001)).toEqual([tok('osc', '\x1b]11;rgb:0/0/0\x07')]);
  });

  it('resolves an ESC at the end of an OSC string as a lone ESC on timeout', () => {
    const t = new InputTokenizer();
    expect(t.push('\x1b]11;x\x1b', 0)).toEqual([]);
    expect(t.pendingTimeoutMs).toBe(ESC_TIMEOUT_MS);
    expect(t.flush(ESC_TIMEOUT_MS)).toEqual([tok('osc', '\x1b]11;x'), tok('esc', '\x1b')]);
  });
});

describe('InputTokenizer, bounds', () => {
  it('drops an OSC string longer than MAX_STRING_LENGTH and goes on after its end', () => {
    const t = new InputTokenizer();
    const out: Token[] = [];
    out.push(...t.push('\x1b]52;c;', 0));
    const block = 'A'.repeat(4096);
    for (let sent = 0; sent <= MAX_STRING_LENGTH * 2; sent += block.length) out.push(...t.push(block, 0));
    out.push(...t.push('\x07ok', 0));
    expect(out).toEqual([tok('text', 'ok')]);
    // A string just within the bound is kept.
    const body = 'B'.repeat(MAX_STRING_LENGTH - '\x1b]'.length);
    expect(tokenize(['\x1b]' + body + '\x07'])).toEqual([tok('osc', '\x1b]' + body + '\x07')]);
  });

  it('ends a dropped string at the next ESC so keys are not swallowed', () => {
    const t = new InputTokenizer();
    t.push('\x1bP' + 'x'.repeat(MAX_STRING_LENGTH + 1), 0);
    expect(t.push('\x1b[A', 0)).toEqual([tok('csi', '\x1b[A')]);
  });
});
