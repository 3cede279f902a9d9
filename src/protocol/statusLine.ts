// The one line a started process reports on its status pipe (fd 3, src/spawnReady.ts): the server
// to the client that started it, the web process to `a1 web`, a holder to the server. JSON with no
// `t`: a line is known by its fields (`error`, `lost`, `ready`; a holder's `ok`), the form a
// process started from a newer build than its starter's still writes, and the starter still reads.
import { ProtocolError } from './errors.js';
import { parseJson, readJsonFields } from './jsonWire.js';
import { defineSchema, validateFields, type ShapeOf } from './schema.js';
import type { ReplyError } from './messages.js';

export const statusLineSchema = defineSchema({
  /** The server is ready: its pid and its epoch. */
  serverReady: { ready: 'boolean', pid: 'int', epoch: 'int' },
  /** The web process is ready on its port. */
  webReady: { ready: 'boolean', port: 'int' },
  /** The server or the web process found another one already serving the profile. */
  lost: { lost: 'boolean' },
  /** The server or the web process could not start; `error` is an `error` below. */
  failed: { error: 'object' },
  error: { code: 'string', message: 'string' },
  /** A holder started (ok, with its pids) or did not (the code of why). */
  holder: { ok: 'boolean', pid: 'int?', childPid: 'int?', code: 'string?' },
});

type Shapes = typeof statusLineSchema;
type Failed = { error: ReplyError };
export type ServerStatusLine = ShapeOf<Shapes['serverReady']> | ShapeOf<Shapes['lost']> | Failed;
export type WebStatusLine = ShapeOf<Shapes['webReady']> | ShapeOf<Shapes['lost']> | Failed;
export type HolderStatusLine = ShapeOf<Shapes['holder']>;

/** A server's or web process's line, by kind. */
export type StartStatus = { kind: 'ready' } | { kind: 'lost' } | { kind: 'failed'; error: ReplyError };

/** A status line as written: one JSON line. */
export function statusLine(line: ServerStatusLine | WebStatusLine | HolderStatusLine): string {
  return JSON.stringify(line) + '\n';
}

/** The line a server (`serverReady`) or web process (`webReady`) wrote, or why it is not one of
 * its lines. Never throws; the error never quotes the line. */
export function parseStartStatus(line: string, ready: 'serverReady' | 'webReady'): StartStatus | ProtocolError {
  const value = parseJson(line);
  if (value instanceof ProtocolError) return value;
  if (value === null || typeof value !== 'object') return new ProtocolError('not-object', 'A status line must be a JSON object.');
  if ('error' in value) {
    const failed = validateFields(statusLineSchema, 'failed', value);
    if (failed instanceof ProtocolError) return failed;
    const error = validateFields(statusLineSchema, 'error', failed.error);
    return error instanceof ProtocolError ? error : { kind: 'failed', error };
  }
  if ('lost' in value) {
    const lost = validateFields(statusLineSchema, 'lost', value);
    return lost instanceof ProtocolError ? lost : { kind: 'lost' };
  }
  if ('ready' in value) {
    const readied = validateFields(statusLineSchema, ready, value);
    return readied instanceof ProtocolError ? readied : { kind: 'ready' };
  }
  return new ProtocolError('unknown-type', 'The status line is of no known kind.');
}

/** A holder's line: ready with its pids, or the code of why it failed; or why it is neither. */
export function parseHolderStatus(line: string): { pid: number; childPid: number | null } | { failed: string } | ProtocolError {
  const value = readJsonFields(statusLineSchema, 'holder', line);
  if (value instanceof ProtocolError) return value;
  if (!value.ok) return { failed: value.code ?? 'holder-failed' };
  if (typeof value.pid !== 'number') return new ProtocolError('bad-field', 'Field "pid" of a ready "holder" must be int.');
  return { pid: value.pid, childPid: value.childPid ?? null };
}
