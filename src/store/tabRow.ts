// A tab as the registry stores it, and the pure mapping between that shape and the `tabs` table.
// FIELD_COLUMNS is the one list of which field lives in which column; inserts, updates and reads
// are all derived from it.
import type { Lifecycle } from '../tabLifecycle.js';

export type NameSource = 'default' | 'user' | 'auto';

export interface TabRow {
  id: string;
  /** 'shell' or the agent kind. */
  kind: string;
  /** The agent session the tab holds; null for a shell or an agent that has not reported one. */
  sessionId: string | null;
  name: string;
  nameSource: NameSource;
  ord: number;
  cwd: string;
  /** argv; null means the configured tabCommand. */
  command: string[] | null;
  desired: 'running' | 'stopped';
  lifecycle: Lifecycle;
  holderPid: number | null;
  holderStart: string | null;
  holderInc: string | null;
  childPid: number | null;
  /** The child's native start time, so a later server can tell it from a process that got its pid. */
  childStart: string | null;
  childInc: string | null;
  controllerRev: number;
  lastExit: { code: number | null; signal: number | null } | null;
  createdAt: number;
  viewedAt: number | null;
}

export type TabPatch = Partial<Omit<TabRow, 'id'>>;

/** A value as SQLite stores it in a STRICT table column. */
type SqlValue = string | number | null;
export type TabColumns = Record<string, SqlValue>;

export const FIELD_COLUMNS: { readonly [K in keyof TabRow]-?: string } = {
  id: 'id',
  kind: 'kind',
  sessionId: 'session_id',
  name: 'name',
  nameSource: 'name_source',
  ord: 'ord',
  cwd: 'cwd',
  command: 'command',
  desired: 'desired',
  lifecycle: 'lifecycle',
  holderPid: 'holder_pid',
  holderStart: 'holder_start',
  holderInc: 'holder_inc',
  childPid: 'child_pid',
  childStart: 'child_start',
  childInc: 'child_inc',
  controllerRev: 'controller_rev',
  lastExit: 'last_exit',
  createdAt: 'created_at',
  viewedAt: 'viewed_at',
};

const FIELDS = Object.keys(FIELD_COLUMNS) as (keyof TabRow)[];

/** Structured fields are stored as JSON text; every other field is stored as it is. */
const JSON_FIELDS: ReadonlySet<keyof TabRow> = new Set(['command', 'lastExit']);

function encodeField(field: keyof TabRow, value: unknown): SqlValue {
  if (JSON_FIELDS.has(field)) return value === null ? null : JSON.stringify(value);
  return value as SqlValue;
}

function decodeField(field: keyof TabRow, value: SqlValue): unknown {
  if (JSON_FIELDS.has(field)) return value === null ? null : JSON.parse(value as string);
  return value;
}

export function isTabField(key: string): key is keyof TabRow {
  return Object.hasOwn(FIELD_COLUMNS, key);
}

/** Column values for every field of `tab`, keyed by column name. */
export function tabToColumns(tab: TabRow): TabColumns {
  const columns: TabColumns = {};
  for (const field of FIELDS) columns[FIELD_COLUMNS[field]] = encodeField(field, tab[field]);
  return columns;
}

/** Column values for just the fields present in `patch`; an unknown field is a programming error. */
export function patchToColumns(patch: TabPatch): TabColumns {
  const columns: TabColumns = {};
  for (const [key, value] of Object.entries(patch)) {
    if (key === 'id' || !isTabField(key)) throw new TypeError(`${key} is not an updatable tab field`);
    if (value === undefined) continue;
    columns[FIELD_COLUMNS[key]] = encodeField(key, value);
  }
  return columns;
}

export function columnsToTab(row: TabColumns): TabRow {
  const tab: Record<string, unknown> = {};
  for (const field of FIELDS) tab[field] = decodeField(field, row[FIELD_COLUMNS[field]] ?? null);
  return tab as unknown as TabRow;
}
