// What a tab created from another machine starts with (issue 30): this machine's environment,
// umask and home, never the other machine's. The other machine names the agent, command, name and
// size, and where to start only when the user said so (`a1 new --host gpu --cwd D`).
import type { CreateArgs } from '../protocol/requests.js';

export interface EntrySide {
  /** The remote entry's own environment: a login's, from sshd. */
  env: NodeJS.ProcessEnv;
  umask: number;
  home: string;
}

/** sshd's variables describe the link's session, not the machine: a tab must not keep them. */
const isSessionVariable = (name: string): boolean => name.startsWith('SSH_');

export function remoteCreateArgs<A extends CreateArgs>(args: A, here: EntrySide): A {
  const env = Object.fromEntries(Object.entries(here.env).filter(([name]) => !isSessionVariable(name)));
  return { ...args, env, umask: here.umask, cwd: args.cwd ?? here.home };
}
