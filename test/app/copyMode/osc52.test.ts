import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OSC52_MAX_TEXT_BYTES, osc52 } from '../../../src/app/copyMode/osc52.js';

function decoded(sequence: string): string {
  const m = /^\x1b\]52;c;([A-Za-z0-9+/=]*)\x07$/.exec(sequence);
  if (!m) throw new Error(`not an OSC 52 sequence: ${JSON.stringify(sequence)}`);
  return Buffer.from(m[1], 'base64').toString('utf8');
}

describe('osc52', () => {
  it('frames the base64 of the UTF-8 text for the clipboard selection', () => {
    expect(osc52('hi')).toEqual({ ok: true, sequence: '\x1b]52;c;aGk=\x07' });
    expect(osc52('')).toEqual({ ok: true, sequence: '\x1b]52;c;\x07' });
  });

  it('carries any text exactly, line breaks, controls and emoji included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        const r = osc52(text);
        expect(r.ok).toBe(true);
        if (r.ok) expect(decoded(r.sequence)).toBe(text);
      }),
    );
  });

  it('refuses text above the cap whole, counting UTF-8 bytes, and accepts it at the cap', () => {
    const atCap = 'x'.repeat(OSC52_MAX_TEXT_BYTES);
    const r = osc52(atCap);
    expect(r.ok && decoded(r.sequence)).toBe(atCap);
    expect(osc52(atCap + 'x')).toMatchObject({ ok: false, error: { code: 'too-large' } });
    // 3 bytes each in UTF-8: a third of the cap in characters already reaches it.
    const wide = '中'.repeat(OSC52_MAX_TEXT_BYTES / 3);
    expect(osc52(wide).ok).toBe(true);
    expect(osc52(wide + '中')).toMatchObject({ ok: false });
  });
});
