// The key table (issue 16): its rows are exactly what the captures in docs/keys/sources say,
// docs/keys.md is rendered from it, and no default key of a1's own is in it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTIONS } from '../../src/keymap/actions.js';
import { parseKey } from '../../src/keymap/keys.js';
import { KEY_TABLE, keyUses, firstKey } from '../../src/keymap/keyTable.js';
import { REPO_ROOT } from '../helpers/pty.js';
import { allRows } from './keySources.js';
import { renderKeysDoc } from './keysDoc.js';

const ROWS_FILE = path.join(REPO_ROOT, 'src', 'keymap', 'keyTableRows.ts');
const DOC_FILE = path.join(REPO_ROOT, 'docs', 'keys.md');

function rowsSource(): string {
  const rows = allRows().map((r) => `  ${JSON.stringify(r)},`);
  return [
    '// Generated from docs/keys/sources by test/keymap/keyTable.test.ts (UPDATE_KEY_TABLE=1); do not edit.',
    "import type { KeyRow } from './keyTable.js';",
    '',
    'export const KEY_ROWS: readonly KeyRow[] = [',
    ...rows,
    '];',
    '',
  ].join('\n');
}

// Regenerating is a deliberate act (after new captures or actions): both files from the captures.
if (process.env.UPDATE_KEY_TABLE === '1') {
  fs.writeFileSync(ROWS_FILE, rowsSource());
  fs.writeFileSync(DOC_FILE, renderKeysDoc(allRows()));
}

function canonical(descriptor: string): string {
  const parsed = parseKey(descriptor);
  if (!parsed.ok) throw new Error(`${descriptor}: ${parsed.reason}`);
  return parsed.key;
}

describe('key table', () => {
  it('holds exactly the rows the captures give', () => {
    expect(fs.readFileSync(ROWS_FILE, 'utf8')).toBe(rowsSource());
  });

  it('docs/keys.md is rendered from the table and the declared actions', () => {
    expect(fs.readFileSync(DOC_FILE, 'utf8')).toBe(renderKeysDoc());
  });

  it('covers every program, and the keys the issue names', () => {
    const programs = new Set(KEY_TABLE.map((r) => r.program));
    expect([...programs].sort()).toEqual(['bash', 'claude', 'codex', 'vim', 'zsh']);
    const uses = (key: string, program: string) => keyUses(key).some((r) => r.program === program);
    expect(uses('alt+enter', 'claude')).toBe(true);
    expect(uses('alt+enter', 'codex')).toBe(true);
    for (const k of ['alt+,', 'alt+.', 'alt+<', 'alt+>', 'f2']) expect(uses(k, 'codex'), k).toBe(true);
    expect(uses('alt+t', 'claude')).toBe(true);
    expect(uses('alt+t', 'bash')).toBe(true);
    expect(uses('ctrl+x', 'claude')).toBe(true); // the first key of its Ctrl+X chords
    expect(firstKey('ctrl+x ctrl+k')).toBe('ctrl+x');
  });

  it("no default key of a1's own is used by a program in the table", () => {
    const own = ACTIONS.filter((a) => a.origin === 'a1');
    expect(own.map((a) => a.id).sort()).toEqual(['commandPrompt', 'copyMode', 'detach', 'sendPrefix', 'tabsPicker', 'takeControl']);
    for (const a of own) {
      for (const k of a.keys) expect(keyUses(canonical(k)).map((r) => `${r.program}: ${r.use}`), `${a.id} ${k}`).toEqual([]);
    }
    expect(ACTIONS.flatMap((a) => a.keys.map(canonical))).not.toContain('alt+enter');
  });
});
