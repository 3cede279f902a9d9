// The status pipe on fd 3 (src/protocol/statusLine.ts): the one line the server, the web process
// and a holder report to whoever started them is declared once, and each starter refuses a line
// that is none of its kinds instead of trusting a cast.
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/protocol/errors.js';
import {
  parseHolderStatus,
  parseStartStatus,
  statusLine,
  type HolderStatusLine,
  type ServerStatusLine,
  type WebStatusLine,
} from '../../src/protocol/statusLine.js';

/** The line as read: the writer's text without its newline. */
function read(line: ServerStatusLine | WebStatusLine | HolderStatusLine): string {
  const text = statusLine(line);
  expect(text.endsWith('\n')).toBe(true);
  return text.slice(0, -1);
}

const error = { code: 'EACCES', message: 'Cannot open the registry.' };

describe('the start status of the server and the web process', () => {
  it('reads every line they write: ready, lost, failed', () => {
    expect(parseStartStatus(read({ ready: true, pid: 42, epoch: 3 }), 'serverReady')).toEqual({ kind: 'ready' });
    expect(parseStartStatus(read({ ready: true, port: 8377 }), 'webReady')).toEqual({ kind: 'ready' });
    for (const ready of ['serverReady', 'webReady'] as const) {
      expect(parseStartStatus(read({ lost: true }), ready)).toEqual({ kind: 'lost' });
      expect(parseStartStatus(read({ error }), ready)).toEqual({ kind: 'failed', error });
    }
  });

  it('refuses a ready line without its fields, or with the other process\'s', () => {
    expect((parseStartStatus(read({ ready: true, port: 8377 }), 'serverReady') as ProtocolError).code).toBe('bad-field');
    expect((parseStartStatus('{"ready":true,"pid":42}', 'serverReady') as ProtocolError).code).toBe('bad-field');
    expect((parseStartStatus('{"ready":true,"port":"8377"}', 'webReady') as ProtocolError).code).toBe('bad-field');
  });

  it('refuses a wrong type, an error without its sentence, a line of no kind, and what is not an object', () => {
    const refused: [line: string, code: string][] = [
      ['{"lost":"yes"}', 'bad-field'],
      ['{"error":"broken"}', 'bad-field'],
      ['{"error":{"code":"EACCES"}}', 'bad-field'],
      ['{"error":{"code":1,"message":"m"}}', 'bad-field'],
      ['{"started":true}', 'unknown-type'],
      ['{}', 'unknown-type'],
      ['null', 'not-object'],
      ['"ready"', 'not-object'],
      ['{"ready":', 'malformed'],
    ];
    for (const [line, code] of refused) expect((parseStartStatus(line, 'serverReady') as ProtocolError).code, line).toBe(code);
  });
});

describe("a holder's ready line", () => {
  it('reads every line a holder writes: ready with its pids, a failed start, a refused init', () => {
    expect(parseHolderStatus(read({ ok: true, pid: 10, childPid: 11 }))).toEqual({ pid: 10, childPid: 11 });
    expect(parseHolderStatus(read({ ok: true, pid: 10, childPid: null }))).toEqual({ pid: 10, childPid: null });
    expect(parseHolderStatus(read({ ok: false, code: 'ENOENT' }))).toEqual({ failed: 'ENOENT' });
    expect(parseHolderStatus(read({ ok: false, code: 'init-bad-field' }))).toEqual({ failed: 'init-bad-field' });
    expect(parseHolderStatus('{"ok":false}')).toEqual({ failed: 'holder-failed' });
  });

  it('refuses a ready line without its pid, a missing ok, a wrong type, and what is not an object', () => {
    const refused: [line: string, code: string][] = [
      ['{"ok":true}', 'bad-field'],
      ['{"pid":10}', 'bad-field'],
      ['{"ok":"true","pid":10}', 'bad-field'],
      ['{"ok":true,"pid":10.5}', 'bad-field'],
      ['{"ok":false,"code":7}', 'bad-field'],
      ['[]', 'not-object'],
      ['ok', 'malformed'],
    ];
    for (const [line, code] of refused) expect((parseHolderStatus(line) as ProtocolError).code, line).toBe(code);
  });
});
