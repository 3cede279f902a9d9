// Adds and removes a1's hook entries in a Claude-Code-shaped hooks file (`{"hooks": {"<Event>":
// [{"matcher"?, "hooks": [{"type": "command", "command", ...}]}]}}`), as text splices that touch
// nothing else: comments, key order, indentation and other people's hooks stay byte for byte.
// Every removal is the exact inverse of the insertion that made it, so install then uninstall
// gives back the original file.
import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

export class HookFileError extends Error {}

export interface HookEntry {
  event: string;
  /** Omitted for events that take no matcher, or to match everything. */
  matcher?: string;
  command: string;
  timeoutSeconds: number;
}

/** Container paths a1 created, such as 'hooks' and 'hooks/Stop', so uninstall removes only those. */
export type CreatedKey = string;

export interface InstallResult {
  text: string;
  created: CreatedKey[];
}

const HOOKS_KEY = 'hooks';
const DEFAULT_INDENT = '  ';

export function eventKey(event: string): CreatedKey {
  return `${HOOKS_KEY}/${event}`;
}

/** `text` null means the file does not exist yet. */
export function installJsonHooks(
  text: string | null,
  entries: readonly HookEntry[],
  isOurs: (command: string) => boolean,
): InstallResult {
  const created: CreatedKey[] = [];
  if (text === null || text.trim() === '') {
    const hooks: Record<string, unknown[]> = {};
    for (const e of entries) (hooks[e.event] ??= []).push(groupValue(e));
    created.push(HOOKS_KEY, ...Object.keys(hooks).map(eventKey));
    const eol = text !== null && text.includes('\r\n') ? '\r\n' : '\n';
    return { text: render({ [HOOKS_KEY]: hooks }, '', DEFAULT_INDENT, eol) + eol, created };
  }
  let current = text;
  for (const entry of entries) {
    const root = parseRoot(current);
    const hooks = propertyValue(root, HOOKS_KEY);
    if (hooks === undefined) {
      current = insertChild(current, root, { key: HOOKS_KEY, value: { [entry.event]: [groupValue(entry)] } });
      created.push(HOOKS_KEY, eventKey(entry.event));
      continue;
    }
    if (hooks.type !== 'object') throw new HookFileError('its "hooks" value is not an object');
    const groups = propertyValue(hooks, entry.event);
    if (groups === undefined) {
      current = insertChild(current, hooks, { key: entry.event, value: [groupValue(entry)] });
      created.push(eventKey(entry.event));
      continue;
    }
    if (groups.type !== 'array') throw new HookFileError(`its "hooks.${entry.event}" value is not an array`);
    const ours = ourCommandNodes(groups, isOurs);
    if (ours.length === 0) {
      current = insertChild(current, groups, { value: groupValue(entry) });
      continue;
    }
    // Already there (perhaps from another a1 path or version): point every copy at this a1, in
    // place, and give a group that holds only a1's handler the matcher this a1 wants.
    const wanted = JSON.stringify(entry.command);
    for (const node of [...ours].sort((a, b) => b.offset - a.offset)) {
      if (node.value !== entry.command) current = splice(current, node.offset, node.offset + node.length, wanted);
    }
    if (entry.matcher !== undefined) current = setOwnMatchers(current, entry, isOurs);
  }
  return { text: current, created };
}

/** Removes every hook handler `isOurs` claims, then the containers a1 created that are left empty. */
export function uninstallJsonHooks(
  text: string,
  isOurs: (command: string) => boolean,
  created: ReadonlySet<CreatedKey>,
): string {
  let current = text;
  for (;;) {
    const root = parseRoot(current);
    const hooks = propertyValue(root, HOOKS_KEY);
    if (hooks?.type !== 'object') return current;
    const next = firstOurHandler(hooks, isOurs);
    if (next === null) break;
    // A group holding only a1's handler goes whole; otherwise just the handler leaves it.
    current = next.handlers.children!.length > 1 ? removeChild(current, next.handlers, next.handler) : removeChild(current, next.groups, next.group);
  }
  for (const key of created) {
    if (!key.startsWith(`${HOOKS_KEY}/`)) continue;
    const root = parseRoot(current);
    const hooks = propertyValue(root, HOOKS_KEY);
    const property = hooks?.type === 'object' ? propertyNode(hooks, key.slice(HOOKS_KEY.length + 1)) : undefined;
    const value = property?.children?.[1];
    if (property && value?.type === 'array' && value.children!.length === 0) current = removeChild(current, hooks!, property);
  }
  if (created.has(HOOKS_KEY)) {
    const root = parseRoot(current);
    const property = propertyNode(root, HOOKS_KEY);
    const value = property?.children?.[1];
    if (property && value?.type === 'object' && value.children!.length === 0) current = removeChild(current, root, property);
  }
  return current;
}

/** True when the text is an object with nothing in it but whitespace (what a1 leaves of a file it created). */
export function isEmptyObjectText(text: string): boolean {
  return text.replace(/\s+/g, '') === '{}';
}

/** Whether any handler in the file is a1's. */
export function hasOurHooks(text: string, isOurs: (command: string) => boolean): boolean {
  const hooks = propertyValue(parseRoot(text), HOOKS_KEY);
  return hooks?.type === 'object' && firstOurHandler(hooks, isOurs) !== null;
}

/** A group with a1's handler alone and another matcher string gets `entry.matcher`. */
function setOwnMatchers(text: string, entry: HookEntry, isOurs: (command: string) => boolean): string {
  const groups = propertyValue(propertyValue(parseRoot(text), HOOKS_KEY)!, entry.event)!;
  const stale: Node[] = [];
  for (const group of groups.children ?? []) {
    const handlers = group.type === 'object' ? propertyValue(group, 'hooks') : undefined;
    const only = handlers?.type === 'array' && handlers.children?.length === 1 ? handlers.children[0] : undefined;
    const command = only?.type === 'object' ? propertyValue(only, 'command') : undefined;
    const matcher = propertyValue(group, 'matcher');
    if (command?.type === 'string' && isOurs(command.value as string) && matcher?.type === 'string' && matcher.value !== entry.matcher) stale.push(matcher);
  }
  let current = text;
  for (const node of stale.sort((a, b) => b.offset - a.offset)) current = splice(current, node.offset, node.offset + node.length, JSON.stringify(entry.matcher));
  return current;
}

function groupValue(entry: HookEntry): Record<string, unknown> {
  const handler = { type: 'command', command: entry.command, timeout: entry.timeoutSeconds };
  return entry.matcher === undefined ? { hooks: [handler] } : { matcher: entry.matcher, hooks: [handler] };
}

function parseRoot(text: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const { line, column } = lineColumn(text, errors[0].offset);
    throw new HookFileError(`it is not valid JSON (${printParseErrorCode(errors[0].error)} at line ${line}, column ${column})`);
  }
  if (root?.type !== 'object') throw new HookFileError('its top level is not a JSON object');
  return root;
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

function propertyNode(object: Node, key: string): Node | undefined {
  return object.children?.find((p) => p.children?.[0]?.value === key);
}

function propertyValue(object: Node, key: string): Node | undefined {
  return propertyNode(object, key)?.children?.[1];
}

function ourCommandNodes(groups: Node, isOurs: (command: string) => boolean): Node[] {
  const found: Node[] = [];
  for (const group of groups.children ?? []) {
    const handlers = group.type === 'object' ? propertyValue(group, 'hooks') : undefined;
    for (const handler of handlers?.type === 'array' ? handlers.children ?? [] : []) {
      const command = handler.type === 'object' ? propertyValue(handler, 'command') : undefined;
      if (command?.type === 'string' && isOurs(command.value as string)) found.push(command);
    }
  }
  return found;
}

interface HandlerPath {
  groups: Node;
  group: Node;
  handlers: Node;
  handler: Node;
}

function firstOurHandler(hooks: Node, isOurs: (command: string) => boolean): HandlerPath | null {
  for (const event of hooks.children ?? []) {
    const groups = event.children?.[1];
    if (groups?.type !== 'array') continue;
    for (const group of groups.children ?? []) {
      const handlers = group.type === 'object' ? propertyValue(group, 'hooks') : undefined;
      if (handlers?.type !== 'array') continue;
      for (const handler of handlers.children ?? []) {
        const command = handler.type === 'object' ? propertyValue(handler, 'command') : undefined;
        if (command?.type === 'string' && isOurs(command.value as string)) return { groups, group, handlers, handler };
      }
    }
  }
  return null;
}

// --- Splices -------------------------------------------------------------------------------

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

/**
 * Appends a child to an object (with `key`) or an array. After an existing last child it adds
 * `,` + line break + the child at that child's indentation (or `, ` when the container is written on
 * one line); into an empty container it writes the child on its own line.
 */
function insertChild(text: string, container: Node, child: { key?: string; value: unknown }): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const unit = indentUnit(text);
  const children = container.children ?? [];
  const open = container.offset;
  const close = container.offset + container.length - 1;
  const keyText = child.key === undefined ? '' : `${JSON.stringify(child.key)}: `;
  if (children.length > 0) {
    const last = children[children.length - 1];
    const multiline = /[\r\n]/.test(text.slice(open + 1, children[0].offset));
    if (!multiline) return splice(text, last.offset + last.length, last.offset + last.length, `, ${keyText}${JSON.stringify(child.value)}`);
    const indent = lineIndent(text, last.offset);
    const body = keyText + render(child.value, indent, unit, eol);
    return splice(text, last.offset + last.length, last.offset + last.length, `,${eol}${indent}${body}`);
  }
  const outer = lineIndent(text, open);
  const indent = outer + unit;
  const body = keyText + render(child.value, indent, unit, eol);
  if (close === open + 1) return splice(text, close, close, `${eol}${indent}${body}${eol}${outer}`);
  // Whatever was inside (spaces, comments) stays after the new child, so removal can give it back.
  return splice(text, open + 1, open + 1, `${eol}${indent}${body}`);
}

/** The inverse of insertChild, for any child (not only the last). */
function removeChild(text: string, container: Node, child: Node): string {
  const children = container.children ?? [];
  const index = children.indexOf(child);
  const end = child.offset + child.length;
  if (index > 0) {
    const previous = children[index - 1];
    return splice(text, previous.offset + previous.length, end, '');
  }
  if (children.length > 1) return splice(text, child.offset, children[1].offset, '');
  const open = container.offset;
  const close = container.offset + container.length - 1;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  // What insertChild writes into `{}`; a container that held exactly a line break before comes
  // back as `{}` too (the one layout that cannot be told apart).
  if (text.slice(end, close) === eol + lineIndent(text, open)) return splice(text, open + 1, close, '');
  return splice(text, open + 1, end, '');
}

/** Pretty JSON whose continuation lines start at `indent`. */
function render(value: unknown, indent: string, unit: string, eol: string): string {
  return JSON.stringify(value, null, unit).split('\n').join(eol + indent);
}

/** The whitespace that starts the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))![0];
}

/** The file's own indentation step: a tab, or the smallest run of leading spaces before JSON
 * (lines inside block comments do not count). */
function indentUnit(text: string): string {
  let smallest = 0;
  for (const line of text.split('\n')) {
    const lead = /^[ \t]+(?=["{}[\]])/.exec(line)?.[0];
    if (lead === undefined) continue;
    if (lead.startsWith('\t')) return '\t';
    if (smallest === 0 || lead.length < smallest) smallest = lead.length;
  }
  return smallest === 0 ? DEFAULT_INDENT : ' '.repeat(smallest);
}
