// `a1 config path`, `a1 config check` and `a1 tabs host reload` (issues 18, 28): where config.json
// and keybindings.json are, what is wrong with them (each problem at file:line:column), which keys
// config.json sets and when a change to each applies; and the reload that applies a change without
// stopping a tab.
import fs from 'node:fs';
import { describeReload, nonDefaultKeys, whenItApplies } from '../../config/applies.js';
import { formatProblem, loadConfig } from '../../config/load.js';
import { loadKeybindings } from '../../keymap/bindingsFile.js';
import { command } from './entry.js';
import { setup, UserError, withRunningServer, type Common } from './shared.js';

async function configPath(argv: Common & { file?: string }): Promise<number> {
  const { paths } = setup(argv);
  // config.json first: a caller that reads one line still gets it.
  const files = { config: paths.configFile, keybindings: paths.keybindingsFile };
  if (argv.file !== undefined && !Object.hasOwn(files, argv.file)) throw new UserError(`Name a file: ${Object.keys(files).join(' or ')}.`);
  const shown = argv.file === undefined ? Object.values(files) : [files[argv.file as keyof typeof files]];
  process.stdout.write(shown.map((f) => `${f}\n`).join(''));
  return 0;
}

async function configCheck(argv: Common): Promise<number> {
  const { paths } = setup(argv);
  const file = paths.configFile;
  const loaded = loadConfig(paths.configDir, process.env);
  const out: string[] = [];
  if (loaded.problems.length === 0) {
    out.push(fs.existsSync(file) ? `${file}: ok` : `${file}: ok (no file: every key has its default)`);
  } else {
    out.push(...loaded.problems.map(formatProblem));
    out.push(loaded.unusable ? 'a1 uses every default until this is fixed.' : 'a1 uses the default for each of these until it is fixed.');
  }
  const changed = nonDefaultKeys(loaded.config, process.env);
  if (changed.length > 0) {
    out.push('Keys set to other than their defaults:');
    const width = Math.max(...changed.map((k) => k.length));
    for (const key of changed) out.push(`  ${key.padEnd(width)}  ${whenItApplies(key)}`);
  }
  const keys = checkKeybindings(paths.keybindingsFile);
  process.stdout.write([...out, ...keys.lines].join('\n') + '\n');
  return loaded.problems.length === 0 && keys.ok ? 0 : 1;
}

function checkKeybindings(file: string): { ok: boolean; lines: string[] } {
  const loaded = loadKeybindings(file);
  if (loaded.problems.length === 0) {
    return { ok: true, lines: [fs.existsSync(file) ? `${file}: ok` : `${file}: ok (no file: every action has its default keys)`] };
  }
  const stands = loaded.unusable ? 'a1 uses the default keys until this is fixed.' : 'a1 uses the default for each of these until it is fixed.';
  return { ok: false, lines: [...loaded.problems.map(formatProblem), stands] };
}

async function hostReload(argv: Common): Promise<number> {
  return withRunningServer(argv, async (server) => {
    const r = await server.request('reloadConfig');
    const file = setup(argv).paths.configFile;
    const out = [...r.problems];
    if (r.kept) out.push(`The server keeps its config as it was: ${file} could not be used.`);
    else if (r.changed.length === 0) out.push(`Reloaded ${file}: nothing changed.`);
    else out.push(`Reloaded ${file}.`, ...describeReload(r.changed));
    process.stdout.write(out.join('\n') + '\n');
    return r.problems.length === 0 ? 0 : 1;
  });
}

export const configPathCommand = command<Common & { file?: string }>({
  path: ['config', 'path'],
  usage: 'a1 config path [config|keybindings]',
  summary: "print where the profile's config.json and keybindings.json are, one a line, or the one named",
  positionals: { file: { describe: 'The file: config or keybindings (both when left out)', required: false } },
  examples: [['a1 config path keybindings', 'print where keybindings.json is']],
  run: configPath,
});

export const configCheckCommand = command<Common>({
  path: ['config', 'check'],
  usage: 'a1 config check',
  summary:
    'check config.json and keybindings.json: "ok" or each problem at file:line:column (exit 1); the keys set and when each applies',
  run: configCheck,
});

export const hostReloadCommand = command<Common>({
  path: ['tabs', 'host', 'reload'],
  usage: 'a1 tabs host reload',
  summary: 'read config.json again and apply it without stopping a tab; says what applies later',
  run: hostReload,
});
