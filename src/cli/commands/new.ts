// `a1 new`: create a tab without attaching and print its id.
import { ensureProfileDirs } from '../../paths.js';
import { ServerClient } from '../../client/serverClient.js';
import { command } from './entry.js';
import { config, resolveDir, setup, type Common } from './shared.js';

interface NewArgs extends Common {
  name?: string;
  cwd?: string;
  agent?: string;
  '--'?: (string | number)[];
}

async function createTab(argv: NewArgs): Promise<number> {
  const env = { ...process.env };
  const umask = process.umask(0o077);
  const cwd = argv.cwd !== undefined ? resolveDir(argv.cwd) : process.cwd();
  const { paths, profile } = setup(argv);
  ensureProfileDirs(paths);
  config(paths);
  const command = (argv['--'] ?? []).map(String);
  const server = await ServerClient.connect(paths, { start: true, profile, env });
  try {
    const { tabId } = await server.request('create', {
      name: argv.name,
      cwd,
      command: command.length > 0 ? command : null,
      agent: argv.agent,
      env,
      umask,
    });
    process.stdout.write(`${tabId}\n`);
    return 0;
  } finally {
    server.close();
  }
}

export const newCommand = command<NewArgs>({
  path: ['new'],
  usage: 'a1 new [--name N] [--cwd D] [--agent KIND] [-- CMD ARGS...]',
  summary: 'create a tab without attaching and print its id; after -- it runs CMD ARGS (one argument with spaces runs through $SHELL -c)',
  options: {
    name: { type: 'string', describe: 'Tab name' },
    cwd: { type: 'string', describe: 'Working directory (default: the current one)' },
    agent: { type: 'string', describe: 'Agent kind the tab runs (claude, codex, generic or one from the config)' },
  },
  examples: [
    ['a1 new --name tests -- npm test', 'a tab named tests that runs npm test'],
    ['a1 new --agent claude -- claude', 'a Claude Code tab whose session a1 can resume'],
    ["a1 new -- 'npm test && npm run lint'", 'a tab running a shell command line, as tmux runs it'],
  ],
  run: createTab,
});
