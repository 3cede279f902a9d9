import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import chalk from 'chalk';
import React from 'react';
import { stripVTControlCharacters } from 'node:util';
import stringWidth from 'string-width';
import { cleanup, render } from 'ink-testing-library';
import { Strip } from '../../src/app/ui/Strip.js';
import { layoutStrip, type StripInput, type StripTab } from '../../src/app/strip/layout.js';
import { renderStripText } from '../../src/app/strip/render.js';
import type { Theme } from '../../src/config.js';
import type { Glyph } from '../../src/status/glyphs.js';

// Ink colours through chalk, whose level comes from the environment the tests run in; pin it
// to basic colours (the instance is Ink's own) so the frames are the same everywhere.
let savedLevel: typeof chalk.level;
beforeAll(() => {
  savedLevel = chalk.level;
  chalk.level = 1;
});
afterAll(() => {
  chalk.level = savedLevel;
});
afterEach(() => cleanup());

// Distinct basic colours, so each role can be recognised by its SGR code.
const theme: Theme = { viewed: 'blue', hovered: 'cyan', other: 'white', plus: 'green', hint: 'magenta', notice: 'yellow' };
const BG: Record<string, string> = { blue: '\x1b[44m', cyan: '\x1b[46m', white: '\x1b[47m', green: '\x1b[42m' };
const bg = (name: string) => BG[name];
const fg = (name: string) => (name === 'magenta' ? '\x1b[35m' : '');
const tab = (id: string, name = id, glyph: Glyph = 'none'): StripTab => ({ id, name, glyph });

function frameOf(over: Partial<StripInput>, colour = true): { frame: string; input: StripInput } {
  const input: StripInput = { cols: 60, tabs: [], viewed: null, hovered: null, drag: null, rename: null, spinnerFrame: 0, ...over };
  const { lastFrame } = render(<Strip layout={layoutStrip(input)} theme={theme} colour={colour} />);
  return { frame: lastFrame() ?? '', input };
}

describe('<Strip>', () => {
  it('draws the layout on one line, never wider than the terminal, with the same text', () => {
    const tabs = [tab('a', '漢字の名前がとても長いタブです', 'working'), tab('b', '👩‍👩‍👧 family', 'done'), tab('c', 'cafe\u0301'), tab('d', 'agent')];
    for (const cols of [1, 2, 3, 5, 10, 17, 30, 45, 60, 99]) {
      const { frame, input } = frameOf({ cols, tabs, viewed: 'b', drag: { tabId: 'b', dropIndex: 3 } });
      expect(frame).not.toContain('\n');
      const text = stripVTControlCharacters(frame);
      expect(stringWidth(text)).toBeLessThanOrEqual(cols);
      // Ink trims the unstyled blanks at the end of a line; everything else is as laid out.
      expect(text.trimEnd()).toBe(renderStripText(layoutStrip(input)).trimEnd());
    }
  });

  it('is exactly the terminal width when the chips fill it', () => {
    // 3 chips of 9 columns, `…` and `+`: 33 columns exactly.
    const tabs = Array.from({ length: 6 }, (_, i) => tab(`t${i}`, `agent ${i}`));
    const { frame } = frameOf({ cols: 33, tabs, viewed: 't0' });
    expect(stringWidth(stripVTControlCharacters(frame))).toBe(33);
    expect(stringWidth(stripVTControlCharacters(frameOf({ cols: 3, tabs }).frame))).toBe(3);
  });

  it('colours chips by role from the theme', () => {
    const { frame } = frameOf({ tabs: [tab('a'), tab('b'), tab('c')], viewed: 'a', hovered: { kind: 'chip', tabId: 'b' } });
    expect(frame).toContain(`${bg(theme.viewed)}`);
    expect(frame).toContain(`${bg(theme.hovered)}`);
    expect(frame).toContain(`${bg(theme.other)}`);
    expect(frame).toContain(`${bg(theme.plus)}`);
    // The viewed chip's text is drawn on the viewed colour, the hovered one's on the hovered colour.
    expect(frame.indexOf(bg(theme.viewed))).toBeLessThan(frame.indexOf('[a]'));
    expect(frame.indexOf(bg(theme.hovered))).toBeLessThan(frame.indexOf(' b '));
    const hoveredPlus = frameOf({ tabs: [tab('a')], viewed: 'a', hovered: { kind: 'plus' } }).frame;
    expect(hoveredPlus).not.toContain(bg(theme.plus));
    expect(hoveredPlus).toContain(bg(theme.hovered));
  });

  it('colours glyphs by meaning: yellow ?, green ✓, red ✗, dim spinner and ◌', () => {
    const glyphs: Glyph[] = ['needs-input', 'done', 'error', 'starting', 'asleep'];
    const { frame } = frameOf({ cols: 99, tabs: glyphs.map((g) => tab(g, g, g)) });
    expect(frame).toMatch(/\x1b\[33m\?/);
    expect(frame).toMatch(/\x1b\[32m✓/);
    expect(frame).toMatch(/\x1b\[31m✗/);
    expect(frame).toMatch(/\x1b\[2m⠋/);
    expect(frame).toMatch(/\x1b\[2m◌/);
  });

  it('colours the glyph an overflow chip carries as a chip\'s: a hidden `?` is yellow', () => {
    const tabs = [tab('a', 'asks', 'needs-input'), ...Array.from({ length: 6 }, (_, i) => tab(`t${i}`, `agent ${i}`))];
    const { frame, input } = frameOf({ cols: 40, tabs, viewed: 't5' });
    expect(stripVTControlCharacters(frame).startsWith(' ? … ')).toBe(true);
    expect(frame).toMatch(/\x1b\[33m\?/);
    expect(stripVTControlCharacters(frame).trimEnd()).toBe(renderStripText(layoutStrip(input)).trimEnd());
  });

  it('shows the rename editor in inverse and keeps its error out of the strip', () => {
    const { frame } = frameOf({ tabs: [tab('a')], viewed: 'a', rename: { tabId: 'a', text: 'new name', cursor: 3, error: 'Names cannot be empty.' } });
    expect(frame).toMatch(/\x1b\[7m new name/);
    expect(frame).not.toContain('empty');
  });

  it('shows the hint in its colour when there are no tabs', () => {
    const { frame } = frameOf({ cols: 50 });
    expect(frame).toContain(`${fg(theme.hint)}  no tabs`);
  });

  it('draws no colour under NO_COLOR, and tells the viewed and hovered chips apart by attributes and brackets', () => {
    const tabs = [tab('a', 'agent', 'error'), tab('b', 'build', 'needs-input'), tab('c')];
    const { frame } = frameOf({ tabs, viewed: 'a', hovered: { kind: 'chip', tabId: 'b' } }, false);
    // No SGR colour parameter at all: 30-49 (basic), 90-107 (bright), 38/48 (extended).
    const colours = [...frame.matchAll(/\x1b\[([\d;]*)m/g)].flatMap((m) => m[1].split(';')).filter((p) => /^(3\d|4\d|9\d|10\d)$/.test(p));
    expect(colours).toEqual([]);
    expect(stripVTControlCharacters(frame)).toContain('[✗ agent]');
    expect(frame).toContain('\x1b[1m'); // bold: the viewed chip
    expect(frame).toContain('\x1b[4m'); // underline: the viewed chip
    expect(frame).toContain('\x1b[7m'); // inverse: the hovered chip
  });
});
