// Opening a tab: `create` (a1 new, the + of the strip), `ensureTab` (bare `a1`: the last viewed
// tab, or a new one) and `openSession` (`a1 --session`: the live tab holding it, or a new tab
// resuming it). One file: all three end in the same create request.
import { validateTabName } from '../../tabName.js';
import { SHELL_KIND, startArgv } from '../../lifecycle/agents.js';
import { newTabName } from '../naming.js';
import { findProgram, shellWrapped } from '../startCommand.js';
import { sanitizeChildEnv } from '../childEnv.js';
import { orderedIds, sessionHolder, type Request } from '../core/index.js';
import type { RequestOp } from '../../protocol/requests.js';
import { tabCurrentDir } from './queries.js';
import { expectedRev, type Accepted, type Outcome, type RequestContext, type RequestHandler, type WireArgs } from './context.js';

/** A session a new tab resumes: its agent and the name it had. */
interface Resumed {
  sessionId: string;
  kind: string;
  name: string | null;
}

function createRequest<K extends RequestOp>(ctx: RequestContext, a: WireArgs<'create'>, session?: Resumed): Outcome<K> {
  let kind = SHELL_KIND;
  if (session) kind = session.kind;
  else if (typeof a.agent === 'string' && a.agent !== '') {
    if (!ctx.config.agents[a.agent]) return { error: { code: 'unknown-agent', message: `"${a.agent}" is not an agent kind in the config.` } };
    kind = a.agent;
  }
  const clientEnv = a.env && typeof a.env === 'object' ? (a.env as NodeJS.ProcessEnv) : undefined;
  const from = typeof a.cwdOfTab === 'string' ? ctx.state().tabs[a.cwdOfTab] : undefined;
  const cwd = (from && tabCurrentDir(ctx, from)) || (typeof a.cwd === 'string' ? a.cwd : process.cwd());
  const given = Array.isArray(a.command) && a.command.length > 0 ? (a.command as unknown[]).map(String) : null;
  // One argument with shell syntax runs through the user's shell, as tmux does (issue 18).
  const command = given && shellWrapped(given, clientEnv?.SHELL ?? process.env.SHELL);
  if (command) {
    // A program that cannot start leaves no tab behind: the creator hears why instead.
    const found = findProgram(command[0], { PATH: clientEnv ? clientEnv.PATH : process.env.PATH, cwd });
    if (!found.ok) return { error: { code: 'cannot-start', message: found.message } };
  }
  let userName = '';
  if (typeof a.name === 'string' && a.name.length > 0) {
    const verdict = validateTabName(a.name);
    if (!verdict.ok) return { error: { code: 'invalid-name', message: verdict.reason } };
    userName = verdict.name;
  }
  const tabs = ctx.state().tabs;
  const taken = orderedIds(tabs).map((id) => tabs[id].name);
  const agentSpec = kind === SHELL_KIND ? undefined : ctx.config.agents[kind];
  const runs = command ?? (agentSpec ? startArgv(agentSpec, ctx.config.tabCommand) : ctx.config.tabCommand);
  const made = newTabName(runs, taken, ctx.config.tabsAutoName);
  // A session's own name comes with it, kept like a user's: its source is not known any more.
  const name = userName || session?.name || made.name;
  const nameSource = userName || session?.name ? 'user' : made.source;
  const env = clientEnv ? sanitizeChildEnv(clientEnv) : undefined;
  const req: Request = {
    op: 'create',
    name,
    sessionId: session?.sessionId ?? null,
    expectedRev: expectedRev(a),
    spec: { kind, cwd, command, nameSource },
    start: {
      env,
      umask: typeof a.umask === 'number' ? a.umask : undefined,
      ...(typeof a.cols === 'number' && typeof a.rows === 'number' ? { cols: a.cols, rows: a.rows } : {}),
    },
  };
  return { req };
}

/** A tab found or opened: `focused` when a live tab already held the session. */
const opened = (_ctx: RequestContext, _open: unknown, r: Accepted) => (r.focused ? { tabId: r.tabId ?? '', focused: true as const } : { tabId: r.tabId ?? '' });

export const create: RequestHandler<'create'> = { take: (ctx, a) => createRequest(ctx, a), answer: opened };

export const ensureTab: RequestHandler<'ensureTab'> = {
  take: (ctx, a) => {
    const tabs = ctx.state().tabs;
    const ids = orderedIds(tabs);
    if (ids.length === 0) return createRequest(ctx, a);
    const last = ctx.registry.getMeta('last_viewed_tab');
    return { result: { tabId: last && tabs[last] ? last : ids[0] } };
  },
  answer: opened,
};

/** `a1 --session`: focus the live tab that holds the session (the core's rule), or open it in a
 * new tab. */
export const openSession: RequestHandler<'openSession'> = {
  take: (ctx, a) => {
    const sessionId = typeof a.sessionId === 'string' ? a.sessionId : '';
    if (!sessionId) return { error: { code: 'bad-session', message: 'Name a session id.' } };
    const held = sessionHolder(Object.values(ctx.state().tabs), sessionId);
    if (held) return { result: { tabId: held.id, focused: true } };
    const record = ctx.registry.listResumeRecords().filter((r) => r.sessionId === sessionId).at(-1);
    const past = ctx.registry.listHistory().find((h) => h.sessionId === sessionId);
    const kind = (typeof a.agent === 'string' && a.agent) || record?.agentKind || past?.agentKind || null;
    if (!kind || kind === SHELL_KIND) return { error: { code: 'unknown-session', message: `a1 knows no agent session "${sessionId}"; pass the session file's path instead.` } };
    const resume = ctx.config.agents[kind]?.resume;
    if (!resume) return { error: { code: 'not-resumable', message: `The "${kind}" agent has no resume command in the config.` } };
    const cwd = (typeof a.cwd === 'string' && a.cwd) || record?.cwd || past?.cwd || process.cwd();
    // The session's own program (a generic agent's), unless the agent kind names one.
    const command = record?.command ?? past?.command ?? null;
    if (!command && resume.includes('{command}')) {
      return { error: { code: 'unknown-program', message: `a1 does not know which program ran session "${sessionId}".` } };
    }
    return createRequest(ctx, { ...a, cwd, command, name: undefined }, { sessionId, kind, name: record?.name ?? past?.name ?? null });
  },
  answer: opened,
};
