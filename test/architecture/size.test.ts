// Issue 17: no source file over 400 lines, and no decoded message cast to a bag of fields. A
// large file is a class doing too much; a cast message is a wire the types do not describe.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/pty.js';

const SRC = path.join(REPO_ROOT, 'src');
const MAX_LINES = 400;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('source size and the typed wire', () => {
  it(`keeps every file under src/ at ${MAX_LINES} lines or fewer`, () => {
    const over = sourceFiles(SRC)
      .map((file) => ({ file: path.relative(SRC, file), lines: fs.readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > MAX_LINES);
    expect(over).toEqual([]);
  });

  it('casts no received message to Record<string, unknown>: each plane is typed (src/protocol/messages.ts)', () => {
    const casts = sourceFiles(SRC).filter((file) => /\b(?:msg|m)\s+as\s+Record<string,\s*unknown>/.test(fs.readFileSync(file, 'utf8')));
    expect(casts.map((f) => path.relative(SRC, f))).toEqual([]);
  });
});
