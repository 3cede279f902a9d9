import { describe, expect, expectTypeOf, it } from 'vitest';
import fc from 'fast-check';
import { propertyRuns } from '../helpers/runs.js';
import { ProtocolError, PROTOCOL_ERROR_CODES } from '../../src/protocol/errors.js';
import { defineSchema, mergeSchemas, validateFields, validateMessage, type FieldSpec, type Schema } from '../../src/protocol/schema.js';

const schema = defineSchema({
  all: { s: 'string', n: 'number', i: 'int', b: 'boolean', y: 'bytes', a: 'any', l: 'string[]', o: 'object' },
  opt: { s: 'string?', i: 'int?', o: 'object?' },
});

const valid = { t: 'all', s: 'x', n: 1.5, i: -3, b: false, y: Buffer.from([0, 255]), a: [1, 'two'], l: ['a', 'b'], o: { k: 1 } };

function codeOf(result: unknown): string | null {
  return result instanceof ProtocolError ? result.code : null;
}

describe('validateMessage', () => {
  it('accepts a message with every field type and returns it unchanged', () => {
    expect(validateMessage(schema, valid)).toBe(valid);
  });

  it('accepts a plain Uint8Array as bytes and a null-prototype object as object', () => {
    expect(codeOf(validateMessage(schema, { ...valid, y: new Uint8Array(3), o: Object.create(null) }))).toBeNull();
  });

  const wrong: [field: string, value: unknown][] = [
    ['s', 1],
    ['n', 'one'],
    ['n', Number.NaN],
    ['n', Number.POSITIVE_INFINITY],
    ['i', 1.5],
    ['i', 2 ** 53],
    ['i', 1n],
    ['b', 0],
    ['y', 'bytes'],
    ['y', [1, 2]],
    ['l', 'a'],
    ['l', ['a', 1]],
    ['o', null],
    ['o', [1]],
    ['o', new Date(0)],
    ['o', new Map()],
    ['o', Buffer.from('x')],
  ];
  it.each(wrong)('rejects field %s = %o as bad-field, naming the field but not the value', (field, value) => {
    const result = validateMessage(schema, { ...valid, [field]: value });
    expect(codeOf(result)).toBe('bad-field');
    expect((result as ProtocolError).message).toContain(`"${field}"`);
  });

  it('requires every non-optional field except any', () => {
    for (const field of ['s', 'n', 'i', 'b', 'y', 'l', 'o']) {
      const without: Record<string, unknown> = { ...valid };
      delete without[field];
      expect(codeOf(validateMessage(schema, without)), field).toBe('bad-field');
    }
    const { a: _a, ...withoutAny } = valid;
    expect(codeOf(validateMessage(schema, withoutAny))).toBeNull();
  });

  it('lets optional fields be absent, undefined or null, but not of the wrong type', () => {
    expect(codeOf(validateMessage(schema, { t: 'opt' }))).toBeNull();
    expect(codeOf(validateMessage(schema, { t: 'opt', s: undefined, i: null, o: null }))).toBeNull();
    expect(codeOf(validateMessage(schema, { t: 'opt', s: 'x', i: 2, o: {} }))).toBeNull();
    expect(codeOf(validateMessage(schema, { t: 'opt', i: 'two' }))).toBe('bad-field');
  });

  it('allows extra fields (forward compatibility)', () => {
    expect(codeOf(validateMessage(schema, { ...valid, later: { x: 1 } }))).toBeNull();
  });

  it('reports an unknown type, including names that exist on Object.prototype', () => {
    for (const t of ['nope', '__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(codeOf(validateMessage(schema, { t })), t).toBe('unknown-type');
    }
  });

  it('does not quote the peer-chosen type name in the error', () => {
    const result = validateMessage(schema, { t: 'secret-looking-text' });
    expect((result as ProtocolError).message).not.toContain('secret');
  });

  it('rejects values that are not plain objects', () => {
    for (const value of [null, undefined, 1, 'all', [{ t: 'all' }], Buffer.from('x'), new Map([['t', 'all']]), new Date(0)]) {
      expect(codeOf(validateMessage(schema, value))).toBe('not-object');
    }
    class Shaped {
      t = 'opt';
    }
    expect(codeOf(validateMessage(schema, new Shaped()))).toBe('not-object');
  });

  it('requires t to be a string', () => {
    expect(codeOf(validateMessage(schema, {}))).toBe('bad-field');
    expect(codeOf(validateMessage(schema, { t: 1 }))).toBe('bad-field');
  });

  it('never throws, whatever the value', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.record({ t: fc.constantFrom('all', 'opt', 'x') }, { requiredKeys: [] })), (value) => {
        const result = validateMessage(schema, value);
        if (result instanceof ProtocolError) expect(PROTOCOL_ERROR_CODES).toContain(result.code);
        else expect(result).toBe(value);
      }),
      { numRuns: propertyRuns(2000) },
    );
  });
});

describe('validateFields (wires whose lines carry no t)', () => {
  const { t: _t, ...fields } = valid;

  it('checks the fields of the named shape, with or without a t, and returns the value unchanged', () => {
    expect(validateFields(schema, 'all', fields)).toBe(fields);
    expect(validateFields(schema, 'all', valid)).toBe(valid);
    expect(codeOf(validateFields(schema, 'opt', {}))).toBeNull();
  });

  it('refuses a missing field, a wrong type and what is not a plain object, as validateMessage does', () => {
    const { s: _s, ...withoutS } = fields;
    expect(codeOf(validateFields(schema, 'all', withoutS))).toBe('bad-field');
    expect(codeOf(validateFields(schema, 'all', { ...fields, i: 1.5 }))).toBe('bad-field');
    expect(codeOf(validateFields(schema, 'opt', { o: [1] }))).toBe('bad-field');
    for (const v of [null, undefined, 'x', [fields], new Date(0)]) expect(codeOf(validateFields(schema, 'all', v))).toBe('not-object');
  });

  it('types its result from the shape; a shape the schema does not declare is a programming error', () => {
    const opt = validateFields(schema, 'opt', {});
    expectTypeOf(opt).toEqualTypeOf<{ s?: string | null; i?: number | null; o?: Record<string, unknown> | null } | ProtocolError>();
    expect(() => validateFields(schema as Schema, 'none', {})).toThrow(/not declared/);
  });
});

describe('defineSchema and mergeSchemas', () => {
  it('refuses an unknown field spec at definition time', () => {
    expect(() => defineSchema({ m: { x: 'float' as FieldSpec } })).toThrow(/unknown spec/);
    expect(() => defineSchema({ m: { x: 'toString' as FieldSpec } })).toThrow(/unknown spec/);
  });

  it('merges the types of several schemas', () => {
    const merged = mergeSchemas(defineSchema({ a: { x: 'int' } }), defineSchema({ b: { y: 'string' } }));
    expect(codeOf(validateMessage(merged, { t: 'a', x: 1 }))).toBeNull();
    expect(codeOf(validateMessage(merged, { t: 'b', y: 'z' }))).toBeNull();
    expect(codeOf(validateMessage(merged, { t: 'b', y: 1 }))).toBe('bad-field');
  });

  it('accepts a type shared with identical fields and refuses a conflicting one', () => {
    const a: Schema = defineSchema({ state: { state: 'object' } });
    expect(() => mergeSchemas(a, defineSchema({ state: { state: 'object' } }))).not.toThrow();
    expect(() => mergeSchemas(a, defineSchema({ state: { state: 'object?' } }))).toThrow(/different fields/);
    expect(() => mergeSchemas(a, defineSchema({ state: { state: 'object', more: 'int' } }))).toThrow(/different fields/);
  });
});
