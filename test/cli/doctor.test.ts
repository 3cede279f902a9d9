// The doctor bundle's allowlist: records are rebuilt from known fields, and only ids, codes and
// numbers survive; anything else a record might carry is dropped.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { allowlistedRecord, buildBundle, countEvents, MAX_BUNDLE_BYTES } from '../../src/cli/doctor.js';

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
});
