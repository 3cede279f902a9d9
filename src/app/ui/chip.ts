// Which glyph a tab's chip shows (SPEC §8), from structured state only: lifecycle for now;
// the agent bridge adds working, needs-input and done.
import type { TabInfo } from '../../protocol/messages.js';
import type { Glyph } from '../strip/glyphs.js';

export function glyphFor(tab: TabInfo): Glyph {
  switch (tab.lifecycle) {
    case 'starting':
      return 'starting';
    case 'failed':
      return 'error';
    case 'exited':
      return tab.exit && tab.exit.code === 0 && !tab.exit.signal ? 'none' : 'error';
    case 'suspended':
      return 'suspended';
    default:
      return 'none';
  }
}
