// `a1 status <state>`: report this tab's agent status over its bridge (../status.ts); agent
// hooks run it with --hook.
import { runStatusHook, sendStatus, StatusError, STATUS_STATES } from '../status.js';
import { command } from './entry.js';
import { UserError } from './shared.js';

interface StatusArgv {
  state?: string;
  sessionId?: string;
  agent?: string;
  name?: string;
  hook?: string;
}

async function reportStatus(argv: StatusArgv): Promise<number> {
  if (argv.hook !== undefined) {
    // Hooks always exit 0 (SPEC §15): Claude Code reads other codes as a block or an error.
    await runStatusHook(process.env, argv.hook, argv.state);
    return 0;
  }
  if (argv.state === undefined || !(STATUS_STATES as readonly string[]).includes(argv.state)) {
    throw new UserError(`Name a state: ${STATUS_STATES.join(', ')}.`);
  }
  try {
    await sendStatus(process.env, { state: argv.state, sessionId: argv.sessionId, agent: argv.agent, name: argv.name });
    return 0;
  } catch (err) {
    if (err instanceof StatusError) throw new UserError(err.message);
    throw err;
  }
}

export const statusCommand = command<StatusArgv>({
  path: ['status'],
  usage: 'a1 status <state> [--session-id ID] [--agent KIND] [--name NAME]',
  summary: "report this tab's agent status from inside it (used by agent hooks)",
  positionals: {
    state: { describe: `The state to report: ${STATUS_STATES.join(', ')} (with --hook: the hook's JSON, else stdin)`, required: false },
  },
  options: {
    hook: { type: 'string', describe: 'Map an agent hook payload, e.g. claude:Stop (what `a1 hooks install` writes); always exits 0', internal: true },
    'session-id': { type: 'string', describe: "The agent session id (becomes the tab's resume record)" },
    agent: { type: 'string', describe: 'Agent kind' },
    name: { type: 'string', describe: 'Session name' },
  },
  examples: [['a1 status idle --session-id ID', 'an agent that finished its turn, naming its session']],
  run: reportStatus,
});
