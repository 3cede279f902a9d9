// `a1 hooks install|uninstall <claude|codex>`: wire an agent's own hooks to `a1 status`
// (../../hooks/install.ts does the edits).
import fs from 'node:fs';
import { command, type PositionalSpec } from './entry.js';
import { UserError } from './shared.js';

async function changeHooks(action: 'install' | 'uninstall', agent: string): Promise<number> {
  const { installHooks, uninstallHooks, HookInstallError, HOOK_AGENTS } = await import('../../hooks/install.js');
  if (!(HOOK_AGENTS as readonly string[]).includes(agent)) {
    throw new UserError(`a1 has hooks for ${HOOK_AGENTS.join(' and ')}, not "${agent}".`);
  }
  const opts = { home: process.env.HOME ?? '/', env: process.env, a1Command: [process.execPath, fs.realpathSync(process.argv[1])] };
  try {
    const changes = (action === 'install' ? installHooks : uninstallHooks)(agent as 'claude' | 'codex', opts);
    for (const c of changes) process.stdout.write(`${c.message}\n`);
    return 0;
  } catch (err) {
    if (err instanceof HookInstallError) throw new UserError(err.message);
    throw err;
  }
}

const AGENT: Record<'agent', PositionalSpec> = { agent: { describe: 'claude or codex', required: true } };

export const hooksInstallCommand = command<{ agent: string }>({
  path: ['hooks', 'install'],
  usage: 'a1 hooks install <claude|codex>',
  summary: "wire an agent's own hooks to a1 status (idempotent; its other settings untouched)",
  positionals: AGENT,
  examples: [['a1 hooks install claude', "add a1's hooks to Claude Code's settings.json"]],
  run: (argv) => changeHooks('install', argv.agent),
});

export const hooksUninstallCommand = command<{ agent: string }>({
  path: ['hooks', 'uninstall'],
  usage: 'a1 hooks uninstall <claude|codex>',
  summary: 'remove exactly the hooks a1 added',
  positionals: AGENT,
  run: (argv) => changeHooks('uninstall', argv.agent),
});
