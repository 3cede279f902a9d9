// The import rule per folder (issue 17): app never imports the holder, the store or the server;
// the holder never imports the store, the server or the app; the server never imports the app or
// the holder (what they share is in protocol, lifecycle or src/); protocol and status import nothing
// above them. KNOWN lists wrong-way imports still waiting to be removed (none since the shared shapes
// moved to their owners' side, issue 17 deliverable 1); it may only shrink: a new
// wrong-way import fails, and so does an entry that is no longer needed.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/pty.js';

const SRC = path.join(REPO_ROOT, 'src');

/** Folder → the folders it must not import. */
const RULES: Readonly<Record<string, readonly string[]>> = {
  app: ['holder', 'store', 'server'],
  holder: ['store', 'server', 'app'],
  server: ['app', 'holder'],
  protocol: ['app', 'cli', 'holder', 'keymap', 'lifecycle', 'server', 'status', 'store'],
  status: ['app', 'cli', 'holder', 'keymap', 'lifecycle', 'server', 'store'],
};

/** Today's wrong-way imports, `importing file -> imported file` (paths under src/). */
const KNOWN: readonly string[] = [];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The src/-relative files a source file imports (type-only imports included: they couple too). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]);
  return specs.map((spec) => path.relative(SRC, path.resolve(path.dirname(file), spec)).replace(/\.js$/, '.ts'));
}

function folderOf(srcRelative: string): string {
  const [first, ...rest] = srcRelative.split(path.sep);
  return rest.length === 0 ? '.' : first;
}

function wrongWayImports(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = path.relative(SRC, file);
    const banned = RULES[folderOf(from)] ?? [];
    for (const to of importsOf(file)) if (banned.includes(folderOf(to))) found.push(`${from} -> ${to}`);
  }
  return [...new Set(found)].sort();
}

describe('layering', () => {
  it('no folder imports one its rule forbids, beyond the known ones being removed', () => {
    const found = wrongWayImports();
    expect(found.filter((f) => !KNOWN.includes(f)), 'new wrong-way imports').toEqual([]);
    expect(KNOWN.filter((k) => !found.includes(k)), 'known entries no longer needed: remove them from KNOWN').toEqual([]);
  });

  it('reads imports: a relative import resolves to its file under src', () => {
    const file = path.join(SRC, 'holder', 'holder.ts');
    expect(importsOf(file)).toContain(path.join('protocol', 'messages.ts'));
  });
});
