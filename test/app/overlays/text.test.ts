import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propertyRuns } from '../../helpers/runs.js';
import stringWidth from 'string-width';
import { fitEnd, fitStart, padEnd, wrapText } from '../../../src/app/overlays/text.js';
import { trickyString } from './events.js';

describe('text fitting', () => {
  it('keeps text that fits and clips the rest with …', () => {
    expect(fitEnd('agent', 5)).toBe('agent');
    expect(fitEnd('agent', 4)).toBe('age…');
    expect(fitEnd('agent', 0)).toBe('');
    expect(fitStart('/home/me/src', 8)).toBe('…/me/src');
    expect(fitStart('/home/me/src', 7)).toBe('…me/src');
    expect(fitStart('/x', 0)).toBe('');
    expect(padEnd('漢字', 5)).toBe('漢字 ');
    expect(padEnd('漢字漢', 5)).toBe('漢字…');
  });

  it('never exceeds the width, pads to it exactly, and cuts only between graphemes', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const graphemes = (s: string) => Array.from(segmenter.segment(s), (x) => x.segment);
    fc.assert(
      fc.property(trickyString(20).map((s) => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')), fc.integer({ min: 0, max: 30 }), (s, w) => {
        const end = fitEnd(s, w);
        const start = fitStart(s, w);
        expect(stringWidth(end)).toBeLessThanOrEqual(w);
        expect(stringWidth(start)).toBeLessThanOrEqual(w);
        expect(stringWidth(padEnd(s, w))).toBe(w);
        const g = graphemes(s);
        if (end.endsWith('…') && end !== s) expect(g.join('').startsWith(end.slice(0, -1))).toBe(true);
        if (start.startsWith('…') && start !== s) expect(s.endsWith(start.slice(1))).toBe(true);
      }),
      { numRuns: propertyRuns(500) },
    );
  });
});

describe('wrapText', () => {
  it('breaks at spaces within the width and keeps every word', () => {
    expect(wrapText('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(wrapText('fits', 10)).toEqual(['fits']);
    expect(wrapText('', 10)).toEqual([]);
  });

  it('cuts a word wider than a line between graphemes, by display width', () => {
    expect(wrapText('abcdefgh', 3)).toEqual(['abc', 'def', 'gh']);
    expect(wrapText('日本語です', 4)).toEqual(['日本', '語で', 'す']);
  });

  it('never makes a line wider than the width', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.integer({ min: 1, max: 20 }), (text, width) => {
        for (const line of wrapText(text, width)) expect(stringWidth(line)).toBeLessThanOrEqual(Math.max(width, 2));
      }),
    );
  });
});
