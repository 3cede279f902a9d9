// What the commands share: the profile's paths and config, a connection that never starts a
// server, the one-sentence user error and plain-text tables.
import fs from 'node:fs';
import path from 'node:path';
import { resolvePaths, type Paths } from '../../paths.js';
import type { Config } from '../../config.js';
import { loadConfig } from '../../config/load.js';
import { ServerClient, ServerError } from '../../client/serverClient.js';

export interface Common {
  profile?: string;
}

/** A user's mistake: reported as `a1: <message>`, exit status 1. */
export class UserError extends Error {}

export function setup(argv: Common): { paths: Paths; profile: string } {
  const paths = resolvePaths({ env: process.env, profile: argv.profile });
  return { paths, profile: paths.profile };
}

/** The profile's config; a broken file never stops a command (issue 15): its one notice goes to
 * stderr, or with `interactive` it is left for the client to show. */
export function config(paths: Paths, opts: { interactive?: boolean } = {}): { config: Config; problem: string | null } {
  const loaded = loadConfig(paths.configDir, process.env);
  if (loaded.problem && !opts.interactive) process.stderr.write(`a1: ${loaded.problem}\n`);
  return loaded;
}

/** Connects without ever starting a server: maintenance commands only report. */
export async function existingServer(paths: Paths, profile: string): Promise<ServerClient | null> {
  try {
    return await ServerClient.connect(paths, { start: false, profile });
  } catch (err) {
    if (err instanceof ServerError && err.code === 'no-server') return null;
    throw err;
  }
}

export function resolveDir(dir: string): string {
  const full = path.resolve(dir);
  if (!fs.existsSync(full) || !fs.statSync(full).isDirectory()) throw new UserError(`"${dir}" is not a directory.`);
  return full;
}

export function formatTable(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n') + '\n';
}

/** Options many commands take. */
export const JSON_OPTION = { json: { type: 'boolean', describe: 'Print stable JSON' } } as const;

/** Runs `fn` with a connection to the profile's running server, closed after. With none running,
 * a command that has nothing to do then says so and exits 0; a `required` one (asked to act on a
 * tab) fails with that sentence. */
export async function withRunningServer(argv: Common, fn: (server: ServerClient) => Promise<number>, opts: { required?: boolean } = {}): Promise<number> {
  const { paths, profile } = setup(argv);
  const server = await existingServer(paths, profile);
  if (!server) {
    const none = `No a1 server is running for profile "${profile}".`;
    if (opts.required) throw new UserError(none);
    process.stdout.write(`${none}\n`);
    return 0;
  }
  try {
    return await fn(server);
  } finally {
    server.close();
  }
}
