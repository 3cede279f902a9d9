// `a1 --session <id|path> [--session-dir DIR]` (SPEC §11): a small grammar parsed by hand, so
// every misuse gets one focused sentence before anything starts. Pure.
import path from 'node:path';

export type SessionLaunch =
  | { ok: true; session: string; sessionDir: string | null; profile: string | null }
  | { ok: false; message: string };

const SESSION = '--session';
const SESSION_DIR = '--session-dir';
const PROFILE = '--profile';
const VALUED = [SESSION, SESSION_DIR, PROFILE];

/** Whether `args` is a session launch at all (else yargs handles it). */
export function isSessionLaunch(args: readonly string[]): boolean {
  return args.some((a) => a === SESSION || a === SESSION_DIR || a.startsWith(`${SESSION}=`) || a.startsWith(`${SESSION_DIR}=`));
}

export function parseSessionLaunch(args: readonly string[]): SessionLaunch {
  const seen = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    if (!VALUED.includes(name)) {
      if (arg.startsWith('-')) return { ok: false, message: `${arg} is not an option of a1 --session.` };
      return { ok: false, message: `Unexpected argument "${arg}": a1 --session takes one session.` };
    }
    let value: string | undefined;
    if (eq > 0 && arg.startsWith('--')) value = arg.slice(eq + 1);
    else {
      value = args[i + 1];
      if (value !== undefined && value.startsWith('--')) value = undefined;
      else i++;
    }
    if (value === undefined || value.trim() === '') return { ok: false, message: `${name} needs a value.` };
    if (seen.has(name)) return { ok: false, message: `${name} is given more than once.` };
    seen.set(name, value);
  }
  const session = seen.get(SESSION);
  if (session === undefined) return { ok: false, message: `${SESSION_DIR} needs ${SESSION} <id|path>.` };
  return { ok: true, session, sessionDir: seen.get(SESSION_DIR) ?? null, profile: seen.get(PROFILE) ?? null };
}

const UUID_AT_END = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** Whether `--session` names a file rather than an id. */
export function isSessionPath(value: string): boolean {
  return value.includes('/') || value.endsWith('.jsonl');
}

/** A session named by its file: the id is the name (or the uuid that ends it) of the file itself,
 * `realPath` (symbolic links resolved), so an alias under another name opens the same session;
 * the agent is known from where such files live, the path given or the file's own. An id is
 * passed through. */
export function sessionTarget(value: string, realPath: string = value): { sessionId: string; agent: string | null; isPath: boolean } {
  const isPath = isSessionPath(value);
  if (!isPath) return { sessionId: value, agent: null, isPath };
  const base = path.basename(realPath).replace(/\.jsonl?$/, '');
  const uuid = UUID_AT_END.exec(base);
  const agent = agentOfPath(path.resolve(value)) ?? agentOfPath(path.resolve(realPath));
  return { sessionId: uuid ? uuid[1] : base, agent, isPath };
}

function agentOfPath(full: string): string | null {
  return full.includes(`${path.sep}.claude${path.sep}`) ? 'claude' : full.includes(`${path.sep}.codex${path.sep}`) ? 'codex' : null;
}
