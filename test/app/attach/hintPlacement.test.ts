// Where the first-run hint goes (issue 28): never over a cell of the tab.
import { describe, expect, it } from 'vitest';
import { placeHint, stripEnd, surfaceTopFor } from '../../../src/app/attach/hintPlacement.js';
import { layoutStrip, type StripInput } from '../../../src/app/strip/layout.js';

const HINT = 'Alt+A new tab · F12 hides this';
const PADDED = ` ${HINT} `;

function strip(over: Partial<StripInput>) {
  return layoutStrip({ cols: 80, tabs: [], viewed: null, hovered: null, drag: null, rename: null, spinnerFrame: 0, ...over });
}

describe('placeHint', () => {
  it('puts the hint flush right in the strip row when it fits after the strip\'s last item with a blank column between', () => {
    const end = 80 - 1 - PADDED.length;
    expect(placeHint(80, end, HINT)).toEqual({ row: 'strip', x: 80 - PADDED.length, text: PADDED });
    expect(surfaceTopFor(placeHint(80, end, HINT))).toBe(1);
  });

  it('gives the hint its own row under the strip, the surface starting one row lower, when the strip leaves too little room', () => {
    const place = placeHint(80, 80 - PADDED.length, HINT);
    expect(place).toEqual({ row: 'own', x: 80 - PADDED.length, text: PADDED });
    expect(surfaceTopFor(place)).toBe(2);
  });

  it('clips the hint on its own row to the screen\'s width', () => {
    const place = placeHint(20, 3, HINT);
    expect(place.row).toBe('own');
    expect(place.x).toBe(0);
    expect(place.text).toBe(' Alt+A new tab · F… ');
    expect(place.text).toHaveLength(20);
  });

  it('leaves the surface at the strip\'s row with no hint', () => {
    expect(surfaceTopFor(null)).toBe(1);
  });
});

describe('stripEnd', () => {
  it('is the column after the strip\'s last chip or `+`', () => {
    const layout = strip({ tabs: [{ id: 't1', name: 'agent', glyph: 'none' }], viewed: 't1' });
    const last = layout.items[layout.items.length - 1];
    expect(last.kind).toBe('plus');
    expect(stripEnd(layout)).toBe(last.x + last.w);
  });

  it('leaves out the strip\'s own no-tabs line', () => {
    const layout = strip({ emptyHint: '  no tabs · Alt+A or + opens one' });
    expect(layout.items.map((i) => i.kind)).toEqual(['plus', 'hint']);
    expect(stripEnd(layout)).toBe(layout.items[0].x + layout.items[0].w);
  });

  it('is the whole row when the strip overflows', () => {
    const tabs = Array.from({ length: 20 }, (_, i) => ({ id: `t${i}`, name: `tab number ${i}`, glyph: 'none' as const }));
    expect(stripEnd(strip({ tabs, viewed: 't0' }))).toBeGreaterThan(70);
  });
});
