// Recovery files: the last screen with bounded scrollback, owner-only, pruned after a week.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import { recoveryText, writeRecoveryFile, recoveryFile, RECOVERY_SCROLLBACK_LINES } from '../../src/holder/recovery.js';
import { pruneRecoveryFiles, RECOVERY_MAX_AGE_MS } from '../../src/pruneFiles.js';

function buffer(lines: string[]) {
  return { length: lines.length, getLine: (y: number) => ({ translateToString: () => lines[y] }) };
}

describe('recovery files', () => {
  it('keeps the screen and at most the bounded scrollback, without trailing blank rows', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line-${i}`);
    const text = recoveryText(buffer([...lines, '', '']), 40);
    const kept = text.trimEnd().split('\n');
    expect(kept).toHaveLength(RECOVERY_SCROLLBACK_LINES + 40 - 2);
    expect(kept.at(-1)).toBe('line-4999');
  });

  it('writes owner-only and prunes files older than a week', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a1r-'));
    try {
      const file = recoveryFile(dir, 'tab1', 'inc1');
      writeRecoveryFile(file, 'last screen\n');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(file, 'utf8')).toBe('last screen\n');
      const now = Date.now();
      expect(pruneRecoveryFiles(dir, now + RECOVERY_MAX_AGE_MS - 60_000)).toBe(0);
      expect(pruneRecoveryFiles(dir, now + RECOVERY_MAX_AGE_MS + 60_000)).toBe(1);
      expect(fs.existsSync(file)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
