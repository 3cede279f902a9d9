// Reading config.json (SPEC §12, issue 18): JSON with comments and trailing commas (JSONC, as VS
// Code's settings), every problem placed at its file:line:column, an unknown key with the known
// key it most likely meant. Bad configuration never stands between a user and the tabs (issue
// 15): what is broken has its default and the user gets one notice.
import fs from 'node:fs';
import path from 'node:path';
import { findNodeAtLocation, getNodeValue, type Node } from 'jsonc-parser';
import { CONFIG_FILE_NAME, CONFIG_KEYS, defaultConfig, type Config, type ConfigKey, type KeySpec } from '../config.js';
import { formatProblem, parseJsoncObject, properties, type FileProblem } from './jsonc.js';
import { didYouMean } from './suggest.js';

/** One thing wrong with the file, where it is. */
export type ConfigProblem = FileProblem;
export { formatProblem };

/** A loaded config, always usable. */
export interface ConfigResult {
  config: Config;
  /** The one notice for a file that was not usable as written, naming where; null when it was. */
  problem: string | null;
  /** Every problem, in file order (`a1 config check` lists them all). */
  problems: ConfigProblem[];
  /** The file could not be read or parsed at all: every value is a default. */
  unusable: boolean;
  /** The keys the file sets, with usable values, in file order. */
  set: ConfigKey[];
}

const KEY_NAMES = Object.keys(CONFIG_KEYS);

/** Reads `<configDir>/config.json`; a missing file means every default. A file that cannot be read
 * or parsed gives every default; a key that is unknown or has a bad value gives that key's
 * default; either way with one notice naming the file, line and column. */
export function loadConfig(configDir: string, env: NodeJS.ProcessEnv): ConfigResult {
  const file = path.join(configDir, CONFIG_FILE_NAME);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { config: defaultConfig(env), problem: null, problems: [], unusable: false, set: [] };
    return unusable(env, { file, line: null, column: null, message: `could not be read (${code ?? 'unknown error'})` });
  }
  return parseConfig(text, file, env);
}

/** The config `text` (the contents of `file`) holds. */
export function parseConfig(text: string, file: string, env: NodeJS.ProcessEnv): ConfigResult {
  const tree = parseJsoncObject(text, file, 'settings');
  if (!tree.ok) return unusable(env, tree.problem);
  const { root, place } = tree;
  const config = defaultConfig(env) as Record<string, unknown>;
  const problems: ConfigProblem[] = [];
  const set: ConfigKey[] = [];
  for (const { key: keyNode, value: valueNode } of properties(root)) {
    const key = String(keyNode.value);
    if (!Object.hasOwn(CONFIG_KEYS, key)) {
      problems.push(place(keyNode.offset, `"${key}" is not a config key${didYouMean(key, KEY_NAMES)}`));
      continue;
    }
    const spec = CONFIG_KEYS[key as ConfigKey] as KeySpec<unknown>;
    const parsed = spec.parse(getNodeValue(valueNode), key);
    if (!parsed.ok) {
      problems.push(place(offsetOf(root, valueNode, parsed.at), `"${parsed.at}" ${parsed.problem}`));
      config[key] = spec.default(env);
      continue;
    }
    config[key] = parsed.value;
    set.push(key as ConfigKey);
  }
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  const problem = problems.length === 0 ? null : `${formatProblem(problems[0])}${more}; using the default for it.`;
  return { config: config as Config, problem, problems, unusable: false, set };
}

function unusable(env: NodeJS.ProcessEnv, p: ConfigProblem): ConfigResult {
  return { config: defaultConfig(env), problem: `${formatProblem(p)}; using the defaults.`, problems: [p], unusable: true, set: [] };
}

/** Where a problem at `at` ("theme.hovred") lies: a nested setting at its own name, a key's
 * value at the value. */
function offsetOf(root: Node, valueNode: Node, at: string): number {
  const nested = at.split('.');
  if (nested.length === 1) return valueNode.offset;
  const node = findNodeAtLocation(root, nested);
  return node?.parent?.type === 'property' ? node.parent.offset : valueNode.offset;
}
