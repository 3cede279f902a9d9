// The last screen of a child that exited or failed, with bounded scrollback, kept in an
// owner-only recovery file for a week (SPEC §4, §10). Recovery files are sensitive: they hold
// terminal content, so nothing else (logs, doctor bundles) ever reads them.
import path from 'node:path';
import { writeFileAtomic } from '../atomicWrite.js';
import { PRIVATE_FILE_MODE } from '../paths.js';

/** Lines of history kept with the last screen. */
export const RECOVERY_SCROLLBACK_LINES = 2_000;

export interface BufferLines {
  length: number;
  getLine(y: number): { translateToString(trimRight?: boolean): string } | undefined;
}

/** The text of the last `screenRows + RECOVERY_SCROLLBACK_LINES` lines of a terminal buffer. */
export function recoveryText(buffer: BufferLines, screenRows: number): string {
  const from = Math.max(0, buffer.length - screenRows - RECOVERY_SCROLLBACK_LINES);
  const lines: string[] = [];
  for (let y = from; y < buffer.length; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n') + '\n';
}

export function recoveryFile(dir: string, tabId: string, childInc: string): string {
  return path.join(dir, `${tabId}-${childInc}.txt`);
}

/** Owner-only, and atomic: a reader, or a holder killed midway, never leaves half a file. */
export function writeRecoveryFile(file: string, text: string): void {
  writeFileAtomic(file, text, { mode: PRIVATE_FILE_MODE });
}
