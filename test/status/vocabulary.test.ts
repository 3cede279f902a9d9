// One word per state (issue 18): the README's table is the declared list, and the code names each
// lifecycle and glyph by its word (issue 29), so there is no internal name to reach a person.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GLYPHS } from '../../src/status/glyphs.js';
import { attentionWord, GLYPH_STATES, glyphWord, sessionStateWord, TAB_STATES, vocabularyTable } from '../../src/status/vocabulary.js';
import { LIFECYCLES } from '../../src/tabLifecycle.js';

const README = path.join(__dirname, '..', '..', 'README.md');

describe('the state vocabulary', () => {
  it('is the README table between the states markers', () => {
    const block = /<!-- begin states -->\n([^]*?)<!-- end states -->/.exec(fs.readFileSync(README, 'utf8'))?.[1];
    expect(block, 'README.md lacks <!-- begin states --> … <!-- end states -->').toBeDefined();
    expect(block, 'README.md states table is stale: paste vocabularyTable() (src/status/vocabulary.ts)').toBe(vocabularyTable());
  });

  it('has a word for exactly every lifecycle and every glyph, each its own name', () => {
    expect(Object.keys(TAB_STATES).sort()).toEqual([...LIFECYCLES].sort());
    expect(Object.keys(GLYPH_STATES).sort()).toEqual([...GLYPHS].sort());
    for (const g of GLYPHS) expect(glyphWord(g)).toBe(g);
    expect(glyphWord('needsInput'), 'a name from before issue 29 is no glyph').toBeNull();
    expect(glyphWord(null)).toBeNull();
    expect([attentionWord('needs-input'), attentionWord('done'), attentionWord('error'), attentionWord('working'), attentionWord('asleep')]).toEqual(['needs-input', 'done', 'error', null, null]);
  });

  it('says a session is open or asleep in its tab, resumable from a record, else its history reason', () => {
    expect(sessionStateWord({ tabLifecycle: 'running', fromRecord: true, historyReason: null })).toBe('open');
    expect(sessionStateWord({ tabLifecycle: 'asleep', fromRecord: true, historyReason: null })).toBe('asleep');
    expect(sessionStateWord({ tabLifecycle: null, fromRecord: true, historyReason: null })).toBe('resumable');
    expect(sessionStateWord({ tabLifecycle: null, fromRecord: false, historyReason: 'expired' })).toBe('expired');
  });
});
