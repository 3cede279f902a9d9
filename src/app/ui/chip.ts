// Which glyph a tab's chip shows (SPEC §8), from structured state only: the holder's status
// model when the tab has a holder, else its lifecycle.
import type { TabInfo } from '../../protocol/messages.js';
import { GLYPHS, type Glyph } from '../../status/glyphs.js';

export function glyphFor(tab: TabInfo): Glyph {
  // A sleeping tab has no holder to ask; otherwise the holder's status model decides (SPEC §8).
  if (tab.lifecycle !== 'asleep' && tab.glyph && (GLYPHS as readonly string[]).includes(tab.glyph)) return tab.glyph as Glyph;
  switch (tab.lifecycle) {
    case 'starting':
      return 'starting';
    case 'failed':
      return 'error';
    case 'exited':
      return tab.exit && tab.exit.code === 0 && !tab.exit.signal ? 'none' : 'error';
    case 'asleep':
      return 'asleep';
    default:
      return 'none';
  }
}
