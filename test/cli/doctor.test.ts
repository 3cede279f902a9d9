// The doctor bundle's allowlist: records are rebuilt from known fields, and only ids, codes and
// numbers survive; anything else a record might carry is dropped.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { allowlistedRecord, buildBundle, countEvents, describeCrashes, holderCounters, MAX_BUNDLE_BYTES } from '../../src/cli/doctor.js';
import { createLogger } from '../../src/log.js';
import { listCrashRecords, writeCrashRecord } from '../../src/diag/crashRecord.js';

describe('doctor records', () => {
  it('keeps allowlisted fields and drops everything else', () => {
    const line = JSON.stringify({ at: '2026-12-02T00:00:00.000Z', level: 'warn', role: 'server', event: 'holder-died', tab: 'tab1', prompt: 'SECRET', message: 'SECRET', code: 'ENOENT' });
    expect(allowlistedRecord(line)).toEqual({ at: '2026-12-02T00:00:00.000Z', level: 'warn', role: 'server', event: 'holder-died', tab: 'tab1', code: 'ENOENT' });
  });

  it('never lets arbitrary text through an allowlisted field', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (text) => {
        const planted = `PLANT${text}`;
        const r = allowlistedRecord(JSON.stringify({ event: 'x', code: `${planted} with spaces and "quotes"\n`, reason: planted.repeat(20) }));
        return !JSON.stringify(r).includes(`${planted} with`) && !JSON.stringify(r).includes(planted.repeat(20));
      }),
    );
    expect(allowlistedRecord('not json')).toBeNull();
    expect(allowlistedRecord(JSON.stringify({ no: 'event' }))).toBeNull();
  });

  it('counts events and stays bounded', () => {
    const records = Array.from({ length: 20_000 }, (_, i) => ({ at: String(i).padStart(8, '0'), event: i % 2 ? 'child-exited' : 'holder-died', tab: 'tab-with-an-id' }));
    expect(countEvents(records)).toEqual({ 'child-exited': 10_000, 'holder-died': 10_000 });
    const bundle = buildBundle({ version: '0', profile: 'p', host: null, registry: null, records });
    expect(Buffer.byteLength(JSON.stringify(bundle))).toBeLessThanOrEqual(MAX_BUNDLE_BYTES);
    // The newest records are the ones kept.
    expect(bundle.records.at(-1)).toEqual(records.at(-1));
  });

  it('lists crash records as metadata and counts holders from their logs', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'a1-doctor-'));
    try {
      const logs = path.join(root, 'logs');
      const crash = path.join(root, 'crash');
      const holder = createLogger(logs, 'holder-t1');
      holder.warn('child-restart', { reason: 'unresponsive' });
      holder.warn('input-rejected', { bytes: 10 });
      createLogger(logs, 'server').warn('holder-died', { tab: 't1' });
      writeCrashRecord(crash, { role: 'holder-t1', incarnation: 'i', reason: 'child-exit', detail: { exitCode: 1 }, events: holder.recent() }, { now: new Date('2026-12-03T01:02:03Z') });
      expect(holderCounters(logs)).toMatchObject({ forcedRestarts: 1, holderDeaths: 0, rejectedInputs: 1 });
      const crashes = listCrashRecords(crash);
      expect(describeCrashes(crashes, crash)).toBe(`1 in ${crash}; newest 2026-12-03 01:02:03 holder-t1 child-exit`);
      expect(describeCrashes([], crash)).toBe('none');
      const bundle = buildBundle({ version: '0', profile: 'p', host: null, registry: null, records: [], crashes });
      expect(bundle.crashes).toEqual(crashes);
      expect(JSON.stringify(bundle)).not.toContain('child-restart');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
