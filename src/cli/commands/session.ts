// `a1 --session <id|path> [--session-dir DIR]`: open an agent session as a tab, or focus the tab
// holding it. Parsed by hand (sessionArgs.ts), so every misuse fails before anything starts.
import fs from 'node:fs';
import { isSessionLaunch, isSessionPath, parseSessionLaunch, sessionTarget } from '../sessionArgs.js';
import { attach } from './attach.js';
import type { CommandContext, DirectEntry } from './entry.js';
import { resolveDir, UserError } from './shared.js';

const USAGE = 'a1 --session <id|path> [--session-dir DIR]';

async function openSession(args: string[], context: CommandContext): Promise<number> {
  const parsed = parseSessionLaunch(args);
  if (!parsed.ok) {
    process.stderr.write(`a1: ${parsed.message} (usage: ${USAGE})\n`);
    return 2;
  }
  const isPath = isSessionPath(parsed.session);
  if (isPath && !fs.existsSync(parsed.session)) throw new UserError(`There is no session file "${parsed.session}".`);
  // A link to a session file is that session: the file it resolves to names it.
  const target = sessionTarget(parsed.session, isPath ? fs.realpathSync(parsed.session) : undefined);
  const cwd = parsed.sessionDir !== null ? resolveDir(parsed.sessionDir) : null;
  return attach({ profile: parsed.profile ?? undefined }, context, { sessionId: target.sessionId, agent: target.agent, cwd });
}

export const sessionCommand: DirectEntry = {
  kind: 'direct',
  usage: USAGE,
  summary: 'open an agent session as a tab, or focus the tab holding it',
  matches: isSessionLaunch,
  run: openSession,
};
