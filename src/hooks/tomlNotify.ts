// Reads, sets and removes the one top-level `notify = [...]` key of Codex's config.toml as a
// line splice, so every other byte (comments, tables, order, formatting) stays as it was. A TOML
// library would rewrite the file; this only has to know where top-level statements start and end.

export interface NotifyStatement {
  /** Start of the statement's line. */
  lineStart: number;
  /** Just past the statement's line break (or the end of the text). */
  end: number;
  valueStart: number;
  valueEnd: number;
  /** The argv when the value is an array of plain strings, else null. */
  argv: string[] | null;
}

interface Scan {
  notify: NotifyStatement | null;
  /** Where a new top-level line goes: after the last top-level statement, else before the comments
   * that head the first table, else at the end. */
  insertAt: number;
}

export class TomlScanError extends Error {}

export function findNotify(text: string): NotifyStatement | null {
  return scanTopLevel(text).notify;
}

/** The text with `notify` set to `argv`: replaced in place when present, else added on its own line. */
export function setNotify(text: string, argv: readonly string[]): string {
  const { notify, insertAt } = scanTopLevel(text);
  const value = renderArray(argv);
  if (notify !== null) return text.slice(0, notify.valueStart) + value + text.slice(notify.valueEnd);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const line = `notify = ${value}`;
  if (insertAt === text.length && text.length > 0 && !text.endsWith('\n')) return text + eol + line;
  return text.slice(0, insertAt) + line + eol + text.slice(insertAt);
}

/** The inverse of setNotify's insertion: drops the statement's whole line. */
export function removeNotify(text: string): string {
  const notify = scanTopLevel(text).notify;
  if (notify === null) return text;
  const endsWithBreak = notify.end > 0 && text[notify.end - 1] === '\n';
  if (!endsWithBreak && notify.lineStart > 0) {
    const breakLength = text[notify.lineStart - 2] === '\r' ? 2 : 1;
    return text.slice(0, notify.lineStart - breakLength) + text.slice(notify.end);
  }
  return text.slice(0, notify.lineStart) + text.slice(notify.end);
}

function renderArray(argv: readonly string[]): string {
  return `[${argv.map(tomlString).join(', ')}]`;
}

/** A TOML basic string. JSON's escapes are TOML's too; TOML also forbids a raw DEL. */
function tomlString(value: string): string {
  return JSON.stringify(value).replace(/\x7f/g, '\\u007f');
}

// --- Scanner -------------------------------------------------------------------------------

function scanTopLevel(text: string): Scan {
  let notify: NotifyStatement | null = null;
  let lastStatementEnd = -1;
  let pos = 0;
  while (pos < text.length) {
    const lineStart = pos;
    pos = skipSpaces(text, pos);
    const c = text[pos];
    if (c === '\n' || c === '\r' || c === '#' || pos >= text.length) {
      pos = nextLine(text, pos);
      continue;
    }
    if (c === '[') return { notify, insertAt: lastStatementEnd >= 0 ? lastStatementEnd : tableHeadStart(text, lineStart) };
    const { key, end: keyEnd } = readKey(text, pos);
    pos = skipSpaces(text, keyEnd);
    if (text[pos] !== '=') throw new TomlScanError(`expected "=" after a key at offset ${pos}`);
    const valueStart = skipSpaces(text, pos + 1);
    const valueEnd = skipValue(text, valueStart);
    pos = skipSpaces(text, valueEnd);
    if (text[pos] === '#') pos = lineEnd(text, pos);
    if (pos < text.length && text[pos] !== '\n' && text[pos] !== '\r') {
      throw new TomlScanError(`unexpected text after a value at offset ${pos}`);
    }
    const end = nextLine(text, pos);
    if (key.length === 1 && key[0] === 'notify') {
      notify = { lineStart, end, valueStart, valueEnd, argv: parseStringArray(text.slice(valueStart, valueEnd)) };
    }
    lastStatementEnd = end;
    pos = end;
  }
  return { notify, insertAt: lastStatementEnd >= 0 ? lastStatementEnd : text.length };
}

/** The first table's line start, moved up over the comment lines directly above it. */
function tableHeadStart(text: string, headerLineStart: number): number {
  let start = headerLineStart;
  while (start > 0) {
    const previousStart = text.lastIndexOf('\n', start - 2) + 1;
    if (!/^[ \t]*#/.test(text.slice(previousStart, start))) break;
    start = previousStart;
  }
  return start;
}

function skipSpaces(text: string, pos: number): number {
  while (text[pos] === ' ' || text[pos] === '\t') pos++;
  return pos;
}

function lineEnd(text: string, pos: number): number {
  while (pos < text.length && text[pos] !== '\n' && text[pos] !== '\r') pos++;
  return pos;
}

function nextLine(text: string, pos: number): number {
  const end = lineEnd(text, pos);
  if (text[end] === '\r' && text[end + 1] === '\n') return end + 2;
  return end < text.length ? end + 1 : end;
}

/** A dotted key of bare or quoted parts. */
function readKey(text: string, pos: number): { key: string[]; end: number } {
  const key: string[] = [];
  for (;;) {
    pos = skipSpaces(text, pos);
    const c = text[pos];
    if (c === '"' || c === "'") {
      const end = skipString(text, pos);
      const decoded = c === "'" ? text.slice(pos + 1, end - 1) : decodeBasic(text.slice(pos, end));
      if (decoded === null) throw new TomlScanError(`unreadable key at offset ${pos}`);
      key.push(decoded);
      pos = end;
    } else {
      const bare = /^[A-Za-z0-9_-]+/.exec(text.slice(pos, pos + 256))?.[0];
      if (bare === undefined) throw new TomlScanError(`expected a key at offset ${pos}`);
      key.push(bare);
      pos += bare.length;
    }
    const after = skipSpaces(text, pos);
    if (text[after] !== '.') return { key, end: pos };
    pos = after + 1;
  }
}

/** Past one value: a string of any kind, an array or inline table (any depth, with comments and
 * line breaks inside arrays), or a scalar that runs to the end of the line or a comment. */
function skipValue(text: string, pos: number): number {
  const c = text[pos];
  if (c === '"' || c === "'") return skipString(text, pos);
  if (c === '[' || c === '{') {
    let depth = 0;
    while (pos < text.length) {
      const ch = text[pos];
      if (ch === '"' || ch === "'") {
        pos = skipString(text, pos);
        continue;
      }
      if (ch === '#') {
        pos = lineEnd(text, pos);
        continue;
      }
      if (ch === '[' || ch === '{') depth++;
      if (ch === ']' || ch === '}') depth--;
      pos++;
      if (depth === 0) return pos;
    }
    throw new TomlScanError('an array or inline table is not closed');
  }
  let end = pos;
  while (end < text.length && text[end] !== '\n' && text[end] !== '\r' && text[end] !== '#') end++;
  while (end > pos && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
  if (end === pos) throw new TomlScanError(`expected a value at offset ${pos}`);
  return end;
}

function skipString(text: string, pos: number): number {
  const quote = text[pos];
  const triple = text.startsWith(quote.repeat(3), pos);
  if (triple) {
    let i = pos + 3;
    for (;;) {
      if (i >= text.length) throw new TomlScanError('a multi-line string is not closed');
      if (quote === '"' && text[i] === '\\') {
        i += 2;
        continue;
      }
      if (text.startsWith(quote.repeat(3), i)) {
        // Up to two more quotes may end the content itself ("""a"""" is `a"`).
        let end = i + 3;
        while (end < i + 5 && text[end] === quote) end++;
        return end;
      }
      i++;
    }
  }
  let i = pos + 1;
  for (;;) {
    if (i >= text.length || text[i] === '\n') throw new TomlScanError('a string is not closed');
    if (quote === '"' && text[i] === '\\') {
      i += 2;
      continue;
    }
    if (text[i] === quote) return i + 1;
    i++;
  }
}

/** A single-line basic string's value, or null for escapes this reader does not know. */
function decodeBasic(quoted: string): string | null {
  const withJsonEscapes = quoted
    .replace(/\\U([0-9A-Fa-f]{8})/g, (_, hex: string) => {
      const cp = Number.parseInt(hex, 16);
      return cp > 0x10ffff ? '\u0000invalid' : JSON.stringify(String.fromCodePoint(cp)).slice(1, -1);
    })
    .replace(/\\e/g, '\\u001b');
  try {
    const value = JSON.parse(withJsonEscapes) as unknown;
    return typeof value === 'string' && !value.includes('\u0000invalid') ? value : null;
  } catch {
    return null;
  }
}

/** The strings of an array value made only of one-line strings, else null. */
function parseStringArray(value: string): string[] | null {
  if (!value.startsWith('[')) return null;
  const out: string[] = [];
  let pos = 1;
  for (;;) {
    pos = skipBlank(value, pos);
    if (value[pos] === ']') return pos === value.length - 1 ? out : null;
    const c = value[pos];
    if ((c !== '"' && c !== "'") || value.startsWith(c.repeat(3), pos)) return null;
    let end: number;
    try {
      end = skipString(value, pos);
    } catch {
      return null;
    }
    const item = c === "'" ? value.slice(pos + 1, end - 1) : decodeBasic(value.slice(pos, end));
    if (item === null) return null;
    out.push(item);
    pos = skipBlank(value, end);
    if (value[pos] === ',') pos++;
    else if (value[pos] !== ']') return null;
  }
}

/** Whitespace, line breaks and comments, as arrays allow between items. */
function skipBlank(text: string, pos: number): number {
  for (;;) {
    while (pos < text.length && /[ \t\r\n]/.test(text[pos])) pos++;
    if (text[pos] !== '#') return pos;
    pos = lineEnd(text, pos);
  }
}
