import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { columnsToTab, FIELD_COLUMNS, patchToColumns, tabToColumns } from '../../src/store/tabRow.js';
import { tabArb } from './helpers.js';

describe('tab row mapping', () => {
  it('round-trips every tab through its columns', () => {
    fc.assert(
      fc.property(tabArb, (tab) => {
        expect(columnsToTab(tabToColumns(tab))).toEqual(tab);
      }),
    );
  });

  it('stores every field in its own column', () => {
    const columns = Object.values(FIELD_COLUMNS);
    expect(new Set(columns).size).toBe(columns.length);
  });

  it('keeps argv with an empty list distinct from the configured command', () => {
    const base = fc.sample(tabArb, 1)[0];
    expect(columnsToTab(tabToColumns({ ...base, command: [] })).command).toEqual([]);
    expect(columnsToTab(tabToColumns({ ...base, command: null })).command).toBeNull();
  });

  it('maps only the fields a patch names, and rejects the id and unknown fields', () => {
    expect(patchToColumns({ name: 'x', lastExit: { code: 0, signal: null } })).toEqual({
      name: 'x',
      last_exit: JSON.stringify({ code: 0, signal: null }),
    });
    expect(() => patchToColumns({ id: 'y' } as never)).toThrow(TypeError);
    expect(() => patchToColumns({ bogus: 1 } as never)).toThrow(TypeError);
  });
});
