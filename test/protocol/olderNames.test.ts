// What an a1 from before issue 29 sends is read as today's names where it arrives.
import { describe, expect, it } from 'vitest';
import type { HolderState, ListingEntry, TabInfo } from '../../src/protocol/messages.js';
import { currentHolderState, currentListingEntry, currentName, currentTabInfo } from '../../src/protocol/olderNames.js';
import { GLYPHS } from '../../src/status/glyphs.js';
import { LIFECYCLES } from '../../src/tabLifecycle.js';

describe('older names', () => {
  it('reads suspended as asleep and needsInput as needs-input, and every name of today as itself', () => {
    expect(currentName('suspended')).toBe('asleep');
    expect(currentName('needsInput')).toBe('needs-input');
    for (const name of [...LIFECYCLES, ...GLYPHS]) expect(currentName(name)).toBe(name);
    expect(currentName('toString')).toBe('toString');
  });

  it('rewrites a tab, a listing row and a holder state from an older peer', () => {
    const tab = { id: 't', lifecycle: 'suspended', glyph: 'suspended' } as TabInfo;
    expect(currentTabInfo(tab)).toMatchObject({ lifecycle: 'asleep', glyph: 'asleep' });
    expect(currentTabInfo({ id: 't', lifecycle: 'running' } as TabInfo)).not.toHaveProperty('glyph');
    const row = { id: 't', status: 'suspended', glyph: 'needsInput', attention: 'needs-input' } as ListingEntry;
    expect(currentListingEntry(row)).toMatchObject({ status: 'asleep', glyph: 'needs-input', attention: 'needs-input' });
    expect(currentListingEntry({ ...row, glyph: null }).glyph).toBeNull();
    expect(currentHolderState({ lifecycle: 'running', glyph: 'needsInput' } as HolderState)).toMatchObject({ lifecycle: 'running', glyph: 'needs-input' });
  });
});
