// Structured, allowlisted logs: event names and numbers only, never terminal content,
// prompts, credentials or raw exception messages. Rotated by size into bounded generations.
import fs from 'node:fs';
import path from 'node:path';

/** Rotate at 1 MiB, keep 3 old generations: enough for a diagnosis, bounded on disk. */
const LOG_ROTATE_BYTES = 1024 * 1024;
const LOG_GENERATIONS = 3;

export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

export function createLogger(dir: string, role: string): Logger {
  const file = path.join(dir, `${role}.log`);
  let size = -1;
  const write = (level: string, event: string, fields?: LogFields): void => {
    try {
      if (size < 0) {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        size = fs.existsSync(file) ? fs.statSync(file).size : 0;
      }
      const line = JSON.stringify({ at: new Date().toISOString(), pid: process.pid, level, role, event, ...fields }) + '\n';
      if (size + line.length > LOG_ROTATE_BYTES) rotate(file), (size = 0);
      fs.appendFileSync(file, line, { mode: 0o600 });
      size += line.length;
    } catch {
      // Logging must never take a resident process down.
    }
  };
  return {
    info: (e, f) => write('info', e, f),
    warn: (e, f) => write('warn', e, f),
    error: (e, f) => write('error', e, f),
  };
}

function rotate(file: string): void {
  for (let i = LOG_GENERATIONS - 1; i >= 1; i--) {
    if (fs.existsSync(`${file}.${i}`)) fs.renameSync(`${file}.${i}`, `${file}.${i + 1}`);
  }
  if (fs.existsSync(file)) fs.renameSync(file, `${file}.1`);
  const oldest = `${file}.${LOG_GENERATIONS + 1}`;
  if (fs.existsSync(oldest)) fs.unlinkSync(oldest);
}

/** An error's code only (never its message, which may carry paths or content). */
export function errorCode(err: unknown): string {
  if (err && typeof err === 'object' && 'code' in err && typeof (err as { code: unknown }).code === 'string') {
    return (err as { code: string }).code;
  }
  return err instanceof Error ? err.name : 'unknown';
}
