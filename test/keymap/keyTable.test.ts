// The key table (issue 16): its rows are exactly what the captures in docs/keys/sources say,
// docs/keys.md is rendered from it, and no default key of a1's own is in it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTIONS } from '../../src/keymap/actions.js';
import { parseKey } from '../../src/keymap/keys.js';
import { KEY_TABLE, keyUses, firstKey } from '../../src/keymap/keyTable.js';
import { REPO_ROOT } from '../helpers/pty.js';
import { allRows, ROW_GROUPS } from './keySources.js';
import { renderKeysDoc } from './keysDoc.js';

const ROWS_DIR = path.join(REPO_ROOT, 'src', 'keymap', 'keyTableRows');
const DOC_FILE = path.join(REPO_ROOT, 'docs', 'keys.md');
const GENERATED = '// Generated from docs/keys/sources by test/keymap/keyTable.test.ts (UPDATE_KEY_TABLE=1); do not edit.';

/** The generated files of src/keymap/keyTableRows/ by name: a file of rows per group, and the
 * index that joins them in table order (one file of them all would exceed the 400 lines a source file may have). */
function rowsSources(): Map<string, string> {
  const files = new Map<string, string>();
  for (const g of ROW_GROUPS) {
    const rows = g.rows().map((r) => `  ${JSON.stringify(r)},`);
    files.set(`${g.name}.ts`, [GENERATED, "import type { KeyRow } from '../keyTable.js';", '', `export const ${g.constant}: readonly KeyRow[] = [`, ...rows, '];', ''].join('\n'));
  }
  files.set(
    'index.ts',
    [
      GENERATED,
      "import type { KeyRow } from '../keyTable.js';",
      ...ROW_GROUPS.map((g) => `import { ${g.constant} } from './${g.name}.js';`),
      '',
      `export const KEY_ROWS: readonly KeyRow[] = [${ROW_GROUPS.map((g) => `...${g.constant}`).join(', ')}];`,
      '',
    ].join('\n'),
  );
  return files;
}

// Regenerating is a deliberate act (after new captures or actions): the rows and the page from
// the captures. A file no group writes any more is removed.
if (process.env.UPDATE_KEY_TABLE === '1') {
  const files = rowsSources();
  fs.mkdirSync(ROWS_DIR, { recursive: true });
  for (const name of fs.readdirSync(ROWS_DIR)) if (!files.has(name)) fs.rmSync(path.join(ROWS_DIR, name));
  for (const [name, text] of files) fs.writeFileSync(path.join(ROWS_DIR, name), text);
  fs.writeFileSync(DOC_FILE, renderKeysDoc(allRows()));
}

function canonical(descriptor: string): string {
  const parsed = parseKey(descriptor);
  if (!parsed.ok) throw new Error(`${descriptor}: ${parsed.reason}`);
  return parsed.key;
}

describe('key table', () => {
  it('holds exactly the rows the captures give', () => {
    const files = rowsSources();
    expect(fs.readdirSync(ROWS_DIR).sort()).toEqual([...files.keys()].sort());
    for (const [name, text] of files) expect(fs.readFileSync(path.join(ROWS_DIR, name), 'utf8'), name).toBe(text);
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
