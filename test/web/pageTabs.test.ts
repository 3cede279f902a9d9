// The strip's chips and the inbox's order, and the page's sizing and reconnect arithmetic.
import { describe, expect, it } from 'vitest';
import { attentionName, chipText, glyphChar, inboxOrder, spins, stateLabel } from '../../src/web/page/tabs.js';
import { backoffMs, fontToFit, gridThatFits, MIN_FONT_PX } from '../../src/web/page/layout.js';
import type { WebAttention, WebTab } from '../../src/web/protocol.js';

function tab(id: string, attention: WebAttention, glyph = 'none'): WebTab {
  return { id, name: `tab-${id}`, glyph, attention, lifecycle: 'running', kind: 'shell', title: '' };
}

describe('inboxOrder', () => {
  it('needs-input first, then error, then done, then the rest, each group in strip order', () => {
    const tabs = [tab('a', null), tab('b', 'done'), tab('c', 'needs-input'), tab('d', 'error'), tab('e', null), tab('f', 'needs-input'), tab('g', 'done')];
    expect(inboxOrder(tabs).map((t) => t.id)).toEqual(['c', 'f', 'd', 'b', 'g', 'a', 'e']);
    expect(tabs.map((t) => t.id)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  });

  it('an attention this page does not know sorts with the rest', () => {
    const odd = { ...tab('x', null), attention: 'bored' as unknown as WebAttention };
    expect(inboxOrder([odd, tab('y', 'done')]).map((t) => t.id)).toEqual(['y', 'x']);
    expect(attentionName(null)).toBe('none');
  });
});

describe('the inbox row\'s state', () => {
  it('says what the agent does, as the chip\'s glyph does, in the words of a1 tabs (issue 28)', () => {
    const running = (glyph: string) => stateLabel({ glyph, lifecycle: 'running' });
    expect(running('working')).toBe('working');
    expect(running('needs-input')).toBe('needs-input');
    expect(running('done')).toBe('done');
    expect(running('error')).toBe('error');
    expect(running('stalled')).toBe('stalled');
    expect(running('unresponsive')).toBe('unresponsive');
    expect(running('none')).toBe('running');
    expect(running('mystery')).toBe('running');
  });

  it('says the tab\'s own state when it does not run', () => {
    expect(stateLabel({ glyph: 'asleep', lifecycle: 'asleep' })).toBe('asleep');
    expect(stateLabel({ glyph: 'error', lifecycle: 'failed' })).toBe('failed');
    expect(stateLabel({ glyph: 'none', lifecycle: 'exited' })).toBe('exited');
    expect(stateLabel({ glyph: 'starting', lifecycle: 'starting' })).toBe('starting');
  });
});

describe('chip text', () => {
  it('glyph character, a space, the name; no glyph for none', () => {
    expect(chipText(tab('1', 'needs-input', 'needs-input'), 0)).toBe('? tab-1');
    expect(chipText(tab('1', 'done', 'done'), 0)).toBe('✓ tab-1');
    expect(chipText(tab('1', 'error', 'error'), 0)).toBe('✗ tab-1');
    expect(chipText(tab('1', null, 'asleep'), 0)).toBe('◌ tab-1');
    expect(chipText(tab('1', null, 'unresponsive'), 0)).toBe('! tab-1');
    expect(chipText(tab('1', null, 'stalled'), 0)).toBe('⧗ tab-1');
    expect(chipText(tab('1', null, 'none'), 0)).toBe('tab-1');
    expect(chipText(tab('1', null, 'mystery'), 0)).toBe('tab-1');
  });

  it('working and starting spin through the spinner frames', () => {
    expect(chipText(tab('1', null, 'working'), 0)).toBe('⠋ tab-1');
    expect(chipText(tab('1', null, 'working'), 1)).toBe('⠙ tab-1');
    expect(glyphChar('starting', 10)).toBe('⠋');
    expect(spins('working') && spins('starting')).toBe(true);
    expect(spins('done') || spins('none') || spins('mystery')).toBe(false);
  });
});

describe('layout', () => {
  it('the font fits the columns in the width, down to the minimum, then scrolls', () => {
    // 80 columns in 380 px of a 0.6-wide font: 7.9 px, rounded down to half pixels.
    expect(fontToFit(80, 380, 0.6)).toEqual({ fontPx: 7.5, scroll: false });
    expect(fontToFit(40, 380, 0.6).fontPx).toBe(15);
    expect(fontToFit(200, 380, 0.6)).toEqual({ fontPx: MIN_FONT_PX, scroll: true });
  });

  it('the grid that fits a box, never below a usable size', () => {
    expect(gridThatFits(386, 500, 7.2, 14)).toEqual({ cols: 53, rows: 35 });
    expect(gridThatFits(50, 20, 7.2, 14)).toEqual({ cols: 20, rows: 5 });
  });

  it('reconnects back off from half a second to ten', () => {
    expect([0, 1, 2, 3, 4, 5, 20].map(backoffMs)).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  });
});
