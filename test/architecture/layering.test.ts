// The import rule per folder of src/, as an allow list (issue 29; VS Code's `code-layering` rule
// is the model): a folder may import only what its entry in LAYERS names, every folder must have
// an entry, so a new folder fails here until it is placed, and top-level files of src/ are the
// folder '.'. A deny list (issue 17) let every folder it did not name import anything.
//
// Bottom up: the shared modules ('.', input, surface, config, protocol, status, diag, lifecycle,
// keymap, hooks, remote); the processes that own the state (store, server, holder), which never
// import one another's insides or a client; the client library (client: the links to the server
// and to holders), below every client; the clients themselves (app: the terminal UI, web: the
// page of `a1 web`, cli: the command line), none of which imports another's UI; and the binary's
// entries (entry), the one place the command line and the terminal UI meet.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/pty.js';

const SRC = path.join(REPO_ROOT, 'src');

/** Folder → what it may import besides itself: folders, or single files (`folder/file.ts`) where
 * one module of a folder is shared and the rest must not be. */
const LAYERS: Readonly<Record<string, readonly string[]>> = {
  '.': ['config', 'input'],
  input: ['surface'],
  surface: ['input'],
  config: ['.'],
  status: ['input'],
  protocol: ['.', 'config', 'diag', 'input', 'surface'],
  lifecycle: ['.', 'protocol'],
  diag: ['.', 'lifecycle'],
  keymap: ['config', 'input'],
  hooks: ['.'],
  // The link to another machine's a1 over ssh (issue 30): its framing, ssh's command line and the
  // link's states, shared by the local side and the remote entry.
  remote: ['.', 'config', 'protocol'],
  // The remote entry (`a1 __remote`): what another machine's link reaches on this one.
  relay: ['.', 'protocol', 'remote'],
  store: ['.', 'lifecycle'],
  server: ['.', 'config', 'diag', 'lifecycle', 'protocol', 'status', 'store'],
  holder: ['.', 'diag', 'input', 'lifecycle', 'protocol', 'status', 'surface'],
  // A server that accepts but never answers is replaced only once the registry vouches for its
  // owner (SPEC §15): the client loads that check, and finds the writer lock, from the server's side.
  client: ['.', 'input', 'protocol', 'surface', 'server/ownerCheck.ts', 'store/layout.ts'],
  app: ['.', 'client', 'config', 'input', 'keymap', 'protocol', 'status', 'surface'],
  web: ['.', 'client', 'input', 'protocol', 'status', 'surface'],
  // `a1 web` starts the web process and reads its control file (web/control.ts, web/gate.ts).
  cli: ['.', 'client', 'config', 'diag', 'hooks', 'input', 'keymap', 'lifecycle', 'protocol', 'status', 'store', 'web'],
  entry: ['app', 'cli'],
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The src/-relative files that `text`, the source of src/-relative `file`, imports: static,
 * dynamic, type-only and re-exports alike (each couples the two). */
function importsIn(file: string, text: string): string[] {
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  return specs.map((spec) => path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.js$/, '.ts'));
}

function folderOf(srcRelative: string): string {
  const [first, ...rest] = srcRelative.split('/');
  return rest.length === 0 ? '.' : first;
}

/** Why `from` may not import `to` (both src/-relative), or null when it may. */
function violation(from: string, to: string): string | null {
  const source = folderOf(from);
  const target = folderOf(to);
  if (source === target) return null;
  const allowed = LAYERS[source];
  if (!allowed) return `${from} -> ${to}: folder ${source} is not placed in LAYERS`;
  return allowed.includes(target) || allowed.includes(to) ? null : `${from} -> ${to}`;
}

function srcFiles(): string[] {
  return sourceFiles(SRC).map((file) => path.relative(SRC, file).split(path.sep).join('/'));
}

function importsOf(file: string): string[] {
  return importsIn(file, fs.readFileSync(path.join(SRC, file), 'utf8'));
}

describe('layering', () => {
  it('every folder of src/ is placed, and every placed folder exists', () => {
    const folders = [...new Set(srcFiles().map(folderOf))].sort();
    expect(Object.keys(LAYERS).sort()).toEqual(folders);
  });

  it('no file imports what its folder may not', () => {
    const found = srcFiles().flatMap((file) => importsOf(file).flatMap((to) => violation(file, to) ?? []));
    expect([...new Set(found)].sort()).toEqual([]);
  });

  it('every single file allowed across folders is still imported from there', () => {
    const used = new Set(srcFiles().flatMap((file) => importsOf(file).map((to) => `${folderOf(file)} ${to}`)));
    const stale = Object.entries(LAYERS).flatMap(([folder, allowed]) => allowed.filter((a) => a.includes('/') && !used.has(`${folder} ${a}`)));
    expect(stale, 'remove these from LAYERS').toEqual([]);
  });

  it('the clients sit above the client library, and none imports another UI', () => {
    expect(violation('web/pageLink.ts', 'app/client.ts')).not.toBeNull();
    expect(violation('cli/commands/attach.ts', 'app/launch.ts')).not.toBeNull();
    expect(violation('app/client.ts', 'web/pageLink.ts')).not.toBeNull();
    expect(violation('client/controlLink.ts', 'app/client.ts')).not.toBeNull();
    expect(violation('web/pageLink.ts', 'client/controlLink.ts')).toBeNull();
  });

  it('a folder not placed may import nothing, and a single allowed file is only that file', () => {
    expect(violation('nowhere/x.ts', 'paths.ts')).toMatch(/not placed/);
    expect(violation('client/serverClient.ts', 'server/ownerCheck.ts')).toBeNull();
    expect(violation('client/serverClient.ts', 'server/server.ts')).not.toBeNull();
  });

  it('reads imports: static, dynamic, type-only and re-exports, resolved under src', () => {
    const text = [
      "import { a } from '../protocol/messages.js';",
      "import type { B } from './sibling.js';",
      "export { c } from '../../paths.js';",
      "const { d } = await import('../server/ownerCheck.js');",
      "import fs from 'node:fs';",
    ].join('\n');
    expect(importsIn('client/deep/x.ts', text)).toEqual(['client/protocol/messages.ts', 'client/deep/sibling.ts', 'paths.ts', 'client/server/ownerCheck.ts']);
    expect(importsOf('holder/holder.ts')).toContain('protocol/messages.ts');
  });
});
