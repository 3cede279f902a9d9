// Every overlay, at every surface size: the rendered frame is exactly the size overlaySize
// promises, so it never spills past the surface, and never reaches past the rect the client
// composites.
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { propertyRuns } from '../../helpers/runs.js';
import { cleanup, render } from 'ink-testing-library';
import { Confirm } from '../../../src/app/ui/Confirm.js';
import { Hotkeys } from '../../../src/app/ui/Hotkeys.js';
import { Menu } from '../../../src/app/ui/Menu.js';
import { Picker } from '../../../src/app/ui/Picker.js';
import { Prompt } from '../../../src/app/ui/Prompt.js';
import { overlaySize, type Overlay } from '../../../src/app/ui/overlayLayout.js';
import { tabsMenu } from '../../../src/app/overlays/menu.js';
import { openPicker } from '../../../src/app/overlays/picker.js';
import { openHotkeys } from '../../../src/app/overlays/hotkeys.js';
import { resolveKeymap } from '../../../src/keymap/resolve.js';
import { measure } from './overlayFrames.js';

afterEach(cleanup);

function element(o: Overlay, cols: number, rows: number): React.ReactElement {
  switch (o.kind) {
    case 'menu': return <Menu state={o.state} cols={cols} rows={rows} />;
    case 'picker': return <Picker state={o.state} cols={cols} rows={rows} />;
    case 'prompt': return <Prompt state={o.state} cols={cols} rows={rows} />;
    case 'confirm': return <Confirm state={o.state} cols={cols} rows={rows} />;
    case 'hotkeys': return <Hotkeys state={o.state} cols={cols} rows={rows} />;
  }
}

const NAMES = ['api', '漢字のタブ名前', '👩‍👩‍👧 family', 'e\u0301te\u0301', '🇫🇷 flags 🇯🇵', 'x'.repeat(64)];

function keymap() {
  const r = resolveKeymap({});
  if (!('keymap' in r)) throw new Error(r.error.message);
  return r.keymap;
}

const overlayArb: fc.Arbitrary<Overlay> = fc.oneof(
  fc.array(fc.constantFrom(...NAMES), { maxLength: 12 }).chain((names) =>
    fc.nat(Math.max(0, names.length - 1)).map((v): Overlay => {
      const tabs = names.map((name, i) => ({ id: `t${i}`, name, glyph: i % 2 ? '✓' : '' }));
      return { kind: 'menu', state: tabsMenu(tabs, tabs[v]?.id ?? null) };
    }),
  ),
  fc.array(fc.record({ name: fc.constantFrom(...NAMES), cwd: fc.constantFrom('/', '/home/me/src/漢字', '/a/'.repeat(40)) }), { maxLength: 12 }).map(
    (rows): Overlay => ({
      kind: 'picker',
      state: openPicker(rows.map((r, i) => ({ id: `t${i}`, name: r.name, glyph: '?', status: i % 2 ? 'working' : 'needs input', cwd: r.cwd })), 't0'),
    }),
  ),
  fc.record({ text: fc.constantFrom(...NAMES), error: fc.option(fc.constantFrom(...NAMES)) }).map(
    ({ text, error }): Overlay => ({ kind: 'prompt', state: { line: { text: `/name ${text}`, cursor: 2 }, error } }),
  ),
  fc.constantFrom(...NAMES).map((name): Overlay => ({ kind: 'confirm', state: { kind: 'closeTab', tabId: 't', name } })),
  fc.nat(30).map((top): Overlay => ({ kind: 'hotkeys', state: { ...openHotkeys(keymap()), top } })),
);

describe('overlay frames', () => {
  it('render exactly at the computed size, within the surface', () => {
    fc.assert(
      // ink-testing-library's terminal is 100 columns wide.
      fc.property(overlayArb, fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 30 }), (overlay, cols, rows) => {
        const size = overlaySize(overlay, cols, rows);
        const r = render(element(overlay, cols, rows));
        const m = measure(r.lastFrame());
        r.unmount();
        expect(m.w).toBeLessThanOrEqual(size.w);
        expect(m.h).toBeLessThanOrEqual(size.h);
        expect(size.w).toBeLessThanOrEqual(cols);
        expect(size.h).toBeLessThanOrEqual(rows);
        // A bordered box is opaque: every row is drawn to its full width.
        if (size.w >= 5 && size.h >= 3) {
          expect(m.h).toBe(size.h);
          for (const line of m.lines) expect(measure(line).w).toBe(size.w);
        }
      }),
      { numRuns: propertyRuns(150) },
    );
  });
});
