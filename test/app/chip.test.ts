import { describe, it, expect } from 'vitest';
import stringWidth from 'string-width';
import { chipLabel, clip, CHIP_MAX_COLUMNS } from '../../src/app/ui/chip.js';
import type { TabInfo } from '../../src/protocol/messages.js';

const tab = (name: string, lifecycle = 'running'): TabInfo => ({
  id: 't', name, nameSource: 'default', ord: 0, cwd: '/', lifecycle, holderPid: 1, childPid: 2, exit: null, title: '',
});

describe('chip label', () => {
  it('pads the name and shows no glyph for a running tab', () => {
    expect(chipLabel(tab('agent'))).toBe(' agent ');
  });

  it('clips long names with … at a grapheme boundary, within the chip width', () => {
    for (const name of ['a'.repeat(40), '漢字'.repeat(15), '👩‍👩‍👧'.repeat(12), 'e\u0301'.repeat(30), 'x🇫🇷'.repeat(10)]) {
      const label = chipLabel(tab(name));
      expect(stringWidth(label)).toBeLessThanOrEqual(CHIP_MAX_COLUMNS);
      expect(label.trimEnd().endsWith('…')).toBe(true);
      // Never a broken cluster: the clipped text is a prefix of the original graphemes.
      expect(name.startsWith(label.trim().slice(0, -1))).toBe(true);
    }
  });

  it('keeps short names whole and marks failed tabs', () => {
    expect(clip('漢字', 10)).toBe('漢字');
    expect(chipLabel(tab('x', 'failed'))).toBe(' ✗ x ');
  });
});
