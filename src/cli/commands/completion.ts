// `a1 completion bash|zsh|fish`: the shell's completion script, generated from the command table;
// `--tabs` prints the running server's tabs (positions, ids, names) for those scripts, and
// nothing when no server runs: completing never starts one.
import { completionScript, completionTree, SHELLS, type Shell } from '../completion.js';
import { command } from './entry.js';
import { existingServer, setup, UserError, type Common } from './shared.js';

type CompletionArgs = Common & { shell?: string; tabs?: boolean };

async function printTabs(argv: Common): Promise<number> {
  const { paths, profile } = setup(argv);
  const server = await existingServer(paths, profile).catch(() => null);
  if (!server) return 0;
  try {
    const { tabs } = await server.request('list');
    const lines = [...tabs.map((_, i) => String(i + 1)), ...tabs.map((t) => t.id), ...new Set(tabs.map((t) => t.name))];
    process.stdout.write(lines.map((l) => `${l}\n`).join(''));
    return 0;
  } finally {
    server.close();
  }
}

async function completion(argv: CompletionArgs): Promise<number> {
  if (argv.tabs) return printTabs(argv);
  if (!SHELLS.includes(argv.shell as Shell)) throw new UserError(`Name a shell: ${SHELLS.join(', ')}.`);
  // The table imports this command: read it when run, not when loaded.
  const { COMMANDS, GROUPS } = await import('./index.js');
  process.stdout.write(completionScript(argv.shell as Shell, completionTree(COMMANDS, GROUPS)));
  return 0;
}

export const completionCommand = command<CompletionArgs>({
  path: ['completion'],
  usage: 'a1 completion bash|zsh|fish',
  summary: 'print the shell completion script: commands, flags and tab names',
  positionals: { shell: { describe: `The shell: ${SHELLS.join(', ')}`, required: false } },
  options: { tabs: { type: 'boolean', describe: "Print the running server's tabs, for the script", internal: true } },
  examples: [
    ['eval "$(a1 completion bash)"', 'complete a1 in this bash (add it to ~/.bashrc)'],
    ['a1 completion fish | source', 'complete a1 in this fish'],
  ],
  run: completion,
});
