// One word per state (issue 18): the README's table is the declared list, and the internal names
// (the registry's `suspended`, the glyph `needsInput`) never reach a person.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GLYPHS } from '../../src/status/glyphs.js';
import { attentionWord, GLYPH_STATES, glyphWord, sessionStateWord, TAB_STATES, tabStateWord, vocabularyTable } from '../../src/status/vocabulary.js';

const README = path.join(__dirname, '..', '..', 'README.md');

describe('the state vocabulary', () => {
  it('is the README table between the states markers', () => {
    const block = /<!-- begin states -->\n([^]*?)<!-- end states -->/.exec(fs.readFileSync(README, 'utf8'))?.[1];
    expect(block, 'README.md lacks <!-- begin states --> … <!-- end states -->').toBeDefined();
    expect(block, 'README.md states table is stale: paste vocabularyTable() (src/status/vocabulary.ts)').toBe(vocabularyTable());
  });

  it('gives every lifecycle and glyph a word of the list; none is an internal name', () => {
    for (const l of ['starting', 'running', 'suspended', 'exited', 'failed']) expect(Object.keys(TAB_STATES)).toContain(tabStateWord(l));
    expect(tabStateWord('suspended')).toBe('asleep');
    for (const g of GLYPHS) expect(Object.keys(GLYPH_STATES)).toContain(glyphWord(g));
    expect(glyphWord('suspended')).toBe('asleep');
    expect(glyphWord('needsInput')).toBe('needs-input');
    expect(glyphWord(null)).toBeNull();
    expect([attentionWord('needsInput'), attentionWord('done'), attentionWord('error'), attentionWord('working'), attentionWord('suspended')]).toEqual(['needs-input', 'done', 'error', null, null]);
  });

  it('says a session is open or asleep in its tab, resumable from a record, else its history reason', () => {
    expect(sessionStateWord({ tabLifecycle: 'running', fromRecord: true, historyReason: null })).toBe('open');
    expect(sessionStateWord({ tabLifecycle: 'suspended', fromRecord: true, historyReason: null })).toBe('asleep');
    expect(sessionStateWord({ tabLifecycle: null, fromRecord: true, historyReason: null })).toBe('resumable');
    expect(sessionStateWord({ tabLifecycle: null, fromRecord: false, historyReason: 'expired' })).toBe('expired');
  });
});
