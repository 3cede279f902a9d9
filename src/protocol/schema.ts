// Message schemas: each message type maps to its fields' specs, and every decoded frame is
// checked against them before anyone reads it. Validation runs on every frame, so a schema is
// compiled once into flat lists of checks.
import { ProtocolError } from './errors.js';

export type FieldType = 'string' | 'number' | 'int' | 'boolean' | 'bytes' | 'any' | 'string[]' | 'object';

/**
 * A field's spec. The `?` form also accepts an absent, `undefined` or `null` value (msgpack keeps
 * null and undefined apart, and senders use both for "none"). `any` accepts anything, absence too.
 */
export type FieldSpec = FieldType | `${FieldType}?`;

export type Schema = Readonly<Record<string, Readonly<Record<string, FieldSpec>>>>;

/** A decoded message: a plain object whose `t` names its type. Extra fields are allowed. */
export interface Message {
  t: string;
  [field: string]: unknown;
}

// ---- message types derived from a schema (issue 17: the declared schema is the wire's type) ----

/** The value a field spec admits. `object` and `any` are refined per message where the schema is
 * too coarse (see MessageOf), and the consumer checks the refinement, as before. */
interface FieldValues {
  string: string;
  number: number;
  int: number;
  boolean: boolean;
  bytes: Uint8Array;
  any: unknown;
  'string[]': string[];
  object: Record<string, unknown>;
}

type ValueOf<S> = S extends `${infer B extends FieldType}?` ? FieldValues[B] | null | undefined : S extends FieldType ? FieldValues[S] : never;
type Absent<S> = S extends `${string}?` ? true : S extends 'any' ? true : false;
type Flat<T> = { [K in keyof T]: T[K] };

/** The fields of one message type: a `?` (or `any`) field may be left out. */
export type FieldsOf<F> = Flat<
  { -readonly [K in keyof F as Absent<F[K]> extends true ? never : K]: ValueOf<F[K]> } & {
    -readonly [K in keyof F as Absent<F[K]> extends true ? K : never]?: ValueOf<F[K]>;
  }
>;

/**
 * The union of a schema's messages, discriminated by `t`. `Refine` gives, per type, the richer
 * shapes of fields the schema can only call `object` or `any` (a patch, a tab, a list).
 */
export type MessageOf<S extends Schema, Refine = {}> = {
  [T in keyof S & string]: Flat<
    { t: T } & (T extends keyof Refine ? Omit<FieldsOf<S[T]>, keyof Refine[T]> & Refine[T] : FieldsOf<S[T]>)
  >;
}[keyof S & string];

/** The fields of one shape of a schema without `t` (see validateFields), with `Refine`'s richer
 * types for what the schema can only call `object`, `any` or `string`. */
export type ShapeOf<F, Refine = {}> = Flat<Omit<FieldsOf<F>, keyof Refine> & Refine>;

/**
 * For the default of an exhaustive `switch (m.t)`: `m` is `never` when every type is handled, so
 * a type added to the schema and not handled is a compile error. At run time it does nothing: a
 * message of a type the side does not expect here (a handshake message after the handshake) is
 * the peer's mistake and is ignored, as an unknown type is.
 */
export function unhandled(m: never): void {
  void m;
}

const CHECKS: Record<FieldType, (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  int: (v) => Number.isSafeInteger(v),
  boolean: (v) => typeof v === 'boolean',
  bytes: (v) => v instanceof Uint8Array,
  any: () => true,
  'string[]': (v) => Array.isArray(v) && v.every((s) => typeof s === 'string'),
  object: isPlainObject,
};

interface CompiledField {
  name: string;
  check: (value: unknown) => boolean;
  optional: boolean;
  spec: FieldSpec;
}

const compiled = new WeakMap<Schema, Map<string, CompiledField[]>>();

/**
 * Today's form of a message an older peer may send in its own words (src/protocol/olderNames.ts),
 * applied where a frame is decoded, after its fields were checked: no reader past the wire sees
 * an older form. It must accept today's form unchanged, and any value the field specs admit.
 */
export type OlderForm = (message: Message) => Message;

/** The older forms each schema declares, by message type. */
const olderForms = new WeakMap<Schema, ReadonlyMap<string, OlderForm>>();

/** Declares a schema, with the older forms of its messages; checks its specs at once so a typo
 * fails at start-up, not on a frame. */
export function defineSchema<const S extends Schema>(schema: S, forms: { readonly [T in keyof S & string]?: OlderForm } = {}): S {
  compile(schema);
  const declared = new Map<string, OlderForm>();
  for (const [type, form] of Object.entries(forms) as [string, OlderForm | undefined][]) {
    if (!Object.hasOwn(schema, type)) throw new Error(`An older form is declared for "${type}", which the schema lacks.`);
    if (form) declared.set(type, form);
  }
  if (declared.size > 0) olderForms.set(schema, declared);
  return schema;
}

/** The message in today's form: as it came, unless its schema declares an older form for its type. */
export function currentForm(schema: Schema, message: Message): Message {
  const form = olderForms.get(schema)?.get(message.t);
  return form ? form(message) : message;
}

/**
 * One schema with every type of the given ones. A type may appear in several only with the
 * same fields (two planes may share a message); a conflicting definition is a programming error.
 */
export function mergeSchemas(...schemas: Schema[]): Schema {
  const merged: Record<string, Readonly<Record<string, FieldSpec>>> = {};
  const forms: Record<string, OlderForm> = {};
  for (const schema of schemas) {
    for (const [type, fields] of Object.entries(schema)) {
      const existing = merged[type];
      if (existing && !sameFields(existing, fields)) {
        throw new Error(`Message type "${type}" is defined twice with different fields.`);
      }
      merged[type] = fields;
    }
    for (const [type, form] of olderForms.get(schema) ?? []) {
      if (Object.hasOwn(forms, type) && forms[type] !== form) throw new Error(`Message type "${type}" has two different older forms.`);
      forms[type] = form;
    }
  }
  return defineSchema(merged, forms);
}

/** The value as a message of `schema`, or the typed reason it is not one. Never throws. */
export function validateMessage(schema: Schema, value: unknown): Message | ProtocolError {
  if (!isPlainObject(value)) return new ProtocolError('not-object', 'A message must be a plain object.');
  const type = value.t;
  if (typeof type !== 'string') return new ProtocolError('bad-field', 'A message must have a string field "t".');
  const fields = compile(schema).get(type);
  if (!fields) return new ProtocolError('unknown-type', 'The message type is unknown.');
  const bad = badField(fields, type, value);
  return bad ?? (value as Message);
}

/**
 * The value as the fields `type` declares, for a wire whose lines carry no `t` because the reader
 * knows which shape comes (a start-up pipe's one line, a process's init, one request and its
 * reply): those wires keep the form older peers write. Never throws.
 */
export function validateFields<S extends Schema, T extends keyof S & string>(schema: S, type: T, value: unknown): FieldsOf<S[T]> | ProtocolError {
  if (!isPlainObject(value)) return new ProtocolError('not-object', 'A message must be a plain object.');
  const fields = compile(schema).get(type);
  if (!fields) throw new Error(`Shape "${type}" is not declared.`);
  const bad = badField(fields, type, value);
  return bad ?? (value as FieldsOf<S[T]>);
}

function badField(fields: readonly CompiledField[], type: string, value: Record<string, unknown>): ProtocolError | null {
  for (const field of fields) {
    const v = value[field.name];
    if (field.optional && (v === undefined || v === null)) continue;
    if (!field.check(v)) {
      return new ProtocolError('bad-field', `Field "${field.name}" of "${type}" must be ${field.spec}.`);
    }
  }
  return null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function compile(schema: Schema): Map<string, CompiledField[]> {
  let table = compiled.get(schema);
  if (table) return table;
  table = new Map();
  for (const [type, fields] of Object.entries(schema)) {
    table.set(
      type,
      Object.entries(fields).map(([name, spec]) => {
        const optional = spec.endsWith('?');
        const base = (optional ? spec.slice(0, -1) : spec) as FieldType;
        const check = Object.hasOwn(CHECKS, base) ? CHECKS[base] : undefined;
        if (!check) throw new Error(`Field "${name}" of "${type}" has an unknown spec "${spec}".`);
        return { name, check, optional, spec };
      }),
    );
  }
  compiled.set(schema, table);
  return table;
}

function sameFields(a: Readonly<Record<string, FieldSpec>>, b: Readonly<Record<string, FieldSpec>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}
