// The JSON files a user writes (config.json, keybindings.json) are read alike: JSON with comments
// and trailing commas (JSONC, as VS Code's settings), every problem placed at file:line:column.
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

/** One thing wrong with a file, where it is (line and column from 1; null when the file could
 * not be read at all). */
export interface FileProblem {
  file: string;
  line: number | null;
  column: number | null;
  message: string;
}

/** "file:line:column: message", or "file: message" without a place. */
export function formatProblem(p: FileProblem): string {
  return p.line === null ? `${p.file}: ${p.message}` : `${p.file}:${p.line}:${p.column}: ${p.message}`;
}

/** A file's top-level object and how to place a problem in it, or why the text is not one. */
export type JsoncObject =
  | { ok: true; root: Node; place(offset: number, message: string): FileProblem }
  | { ok: false; problem: FileProblem };

/** `text`, the contents of `file`, as a JSONC object; `holds` names what the object holds
 * ("settings") for the problem of a file that is some other value. */
export function parseJsoncObject(text: string, file: string, holds: string): JsoncObject {
  // Editors on some platforms save a byte-order mark, which JSON does not allow.
  text = text.replace(/^\uFEFF/, '');
  const place = (offset: number, message: string): FileProblem => ({ file, ...lineColumn(text, offset), message });
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { disallowComments: false, allowTrailingComma: true, allowEmptyContent: false });
  if (errors.length > 0 || root === undefined) {
    const first = errors[0];
    const what = first ? printParseErrorCode(first.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase() : 'empty';
    return { ok: false, problem: place(first?.offset ?? 0, `not valid JSON (${what})`) };
  }
  if (root.type !== 'object') return { ok: false, problem: place(root.offset, `must hold a JSON object of ${holds}`) };
  return { ok: true, root, place };
}

/** The key and value nodes of each of an object node's properties, in file order. */
export function properties(object: Node): { key: Node; value: Node }[] {
  const out: { key: Node; value: Node }[] = [];
  for (const property of object.children ?? []) {
    const [key, value] = property.children ?? [];
    if (key !== undefined && value !== undefined) out.push({ key, value });
  }
  return out;
}

/** Line and column, both from 1, of an offset into `text`. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}
