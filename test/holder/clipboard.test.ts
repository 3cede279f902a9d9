import { describe, it, expect } from 'vitest';
import { CLIPBOARD_MAX_PAYLOAD_CHARS, parseOsc52 } from '../../src/holder/clipboard.js';

describe('parseOsc52', () => {
  it('passes a write on as a BEL-terminated sequence', () => {
    expect(parseOsc52('c;aGVsbG8=')).toEqual({ kind: 'write', sequence: '\x1b]52;c;aGVsbG8=\x07' });
    expect(parseOsc52('pc;')).toEqual({ kind: 'write', sequence: '\x1b]52;pc;\x07' });
  });

  it('recognises a read, so it can be refused', () => {
    expect(parseOsc52('c;?')).toEqual({ kind: 'read' });
    expect(parseOsc52(';?')).toEqual({ kind: 'read' });
  });

  it('drops malformed and oversized payloads', () => {
    expect(parseOsc52('c')).toEqual({ kind: 'invalid' });
    expect(parseOsc52('x;aGVsbG8=')).toEqual({ kind: 'invalid' });
    expect(parseOsc52('c;not base64!')).toEqual({ kind: 'invalid' });
    expect(parseOsc52('c;\x1b[2J')).toEqual({ kind: 'invalid' });
    expect(parseOsc52(`c;${'A'.repeat(CLIPBOARD_MAX_PAYLOAD_CHARS + 4)}`)).toEqual({ kind: 'invalid' });
    expect(parseOsc52(`c;${'A'.repeat(CLIPBOARD_MAX_PAYLOAD_CHARS)}`).kind).toBe('write');
  });
});
