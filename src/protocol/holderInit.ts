// What the server gives a holder it starts (on fd 3, src/holder/main.ts): the tab, its child's
// command and environment, the model's size, the sockets and the keys. One JSON line with no `t`
// (a holder reads only this there, and a server started before a rebuild still writes it so).
import { ProtocolError } from './errors.js';
import { readJsonFields } from './jsonWire.js';
import { defineSchema, type ShapeOf } from './schema.js';
import type { ResumeAuthority } from './resume.js';

/** The init message is small; anything larger is not from our server. */
export const MAX_INIT_BYTES = 1024 * 1024;

export const holderInitSchema = defineSchema({
  init: {
    tabId: 'string',
    holderInc: 'string',
    epoch: 'int',
    /** The tab's own start argv; the first child runs `resume.argv` instead when `resume` is given. */
    command: 'string[]',
    cwd: 'string',
    /** Every value a string (checked by parseHolderInit). */
    env: 'object',
    cols: 'int',
    rows: 'int',
    scrollback: 'int',
    umask: 'int',
    socketPath: 'string',
    holderKey: 'string', // base64
    ticketKey: 'string', // base64
    inputQueueBytes: 'int',
    /** The record (validated by the server) a restart resumes the agent session from, and its
     * argv; null restarts with `command`. Validated again at each restart. */
    resume: 'object?',
    /** Where last screens of exited and failed children go (owner-only). */
    recoveryDir: 'string',
    bridgeKey: 'string', // base64
    bridgeSocketPath: 'string',
    /** The tab's agent kind, or null for a plain shell tab. */
    agentKind: 'string?',
    /** a1's command shims (bin/shims), first on the child's PATH (src/holder/childEnvironment.ts);
     * absent from a server that has none. */
    shimDir: 'string?',
    /** A working agent with no progress this long shows stalled (SPEC §10). */
    stallNoticeMs: 'int',
    /** Missed heartbeats this long show unresponsive: 30 s (SPEC §10), shorter only in tests. */
    unresponsiveMs: 'int?',
    /** A child that heartbeats and then goes silent this long is restarted (SPEC §10). */
    unresponsiveRestartMs: 'int',
    /** The profile's server socket, writer lock and profile: a holder replaces a server that
     * died (SPEC §10). */
    serverSocketPath: 'string?',
    writerLockPath: 'string?',
    profile: 'string?',
    /** The holder's log directory. */
    logDir: 'string',
  },
});

/** A holder's init, as the schema declares it: `env` and `resume` refined, a tab without an
 * agent kind or resume record has null, and a field the server left out is absent. */
export type HolderInit = ShapeOf<
  (typeof holderInitSchema)['init'],
  {
    env: Record<string, string>;
    resume: ResumeAuthority | null;
    agentKind: string | null;
    shimDir?: string;
    unresponsiveMs?: number;
    serverSocketPath?: string;
    writerLockPath?: string;
    profile?: string;
  }
>;

/** The init the server wrote, or why it is not one: the schema's fields, and an environment of
 * strings. Never throws, and never quotes the line (it carries keys). */
export function parseHolderInit(line: string): HolderInit | ProtocolError {
  const init = readJsonFields(holderInitSchema, 'init', line);
  if (init instanceof ProtocolError) return init;
  if (!Object.values(init.env).every((v) => typeof v === 'string')) {
    return new ProtocolError('bad-field', 'Field "env" of "init" must map names to strings.');
  }
  const { env, resume, agentKind, shimDir, unresponsiveMs, serverSocketPath, writerLockPath, profile, ...rest } = init;
  return {
    ...rest,
    env: env as Record<string, string>,
    resume: (resume ?? null) as ResumeAuthority | null,
    agentKind: agentKind ?? null,
    shimDir: shimDir ?? undefined,
    unresponsiveMs: unresponsiveMs ?? undefined,
    serverSocketPath: serverSocketPath ?? undefined,
    writerLockPath: writerLockPath ?? undefined,
    profile: profile ?? undefined,
  };
}
