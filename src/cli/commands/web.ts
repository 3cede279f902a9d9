// `a1 web`: answer your agents from a browser (issue 20). Starts the profile's web process when
// none runs (and the server, as bare `a1` would), then prints a link with a new one-time token.
// `--revoke` ends every session, `--stop` ends the web process.
import fs from 'node:fs';
import path from 'node:path';
import { ServerClient, withoutTabMarkers } from '../../client/serverClient.js';
import { spawnReady } from '../../spawnReady.js';
import { askWeb, type WebInfo } from '../../web/control.js';
import { isLoopback } from '../../web/gate.js';
import { ProtocolError } from '../../protocol/errors.js';
import { parseStartStatus } from '../../protocol/statusLine.js';
import { command } from './entry.js';
import { setup, UserError, type Common } from './shared.js';

type WebArgs = Common & { port?: string; bind?: string; cert?: string; key?: string; 'idle-minutes'?: string; revoke?: boolean; stop?: boolean; json?: boolean };

export const DEFAULT_WEB_PORT = 8377;
const DEFAULT_BIND = '127.0.0.1';
const WEB_START_TIMEOUT_MS = 10_000;

function parsePort(value: string | undefined): number {
  if (value === undefined) return DEFAULT_WEB_PORT;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UserError(`--port takes a port number from 0 to 65535 (0 picks a free one), not "${value}".`);
  return n;
}

function readableFile(value: string, option: string): string {
  const full = path.resolve(value);
  try {
    fs.accessSync(full, fs.constants.R_OK);
  } catch {
    throw new UserError(`${option} "${value}" is not a readable file.`);
  }
  return full;
}

function print(info: WebInfo, json: boolean, lines: string[]): void {
  if (json) process.stdout.write(JSON.stringify({ url: info.url ?? null, port: info.port, pid: info.pid, bind: info.bind, tls: info.tls, sessions: info.sessions, ...(info.ended !== undefined ? { ended: info.ended } : {}) }) + '\n');
  else process.stdout.write(lines.join('\n') + '\n');
}

/** An option given twice arrives as a list: the last one wins, as in most commands people know. */
function lastOf<T>(v: T | T[] | undefined): T | undefined {
  return Array.isArray(v) ? v[v.length - 1] : v;
}

async function web(given: WebArgs): Promise<number> {
  const argv: WebArgs = { ...given };
  for (const k of ['port', 'bind', 'cert', 'key', 'idle-minutes'] as const) argv[k] = lastOf(given[k] as string | string[] | undefined);
  const { paths, profile } = setup(argv);
  const json = argv.json === true;
  if (argv.revoke || argv.stop) {
    if (argv.revoke && argv.stop) throw new UserError('Give --revoke or --stop, not both.');
    const info = await askWeb(paths, argv.revoke ? 'revoke' : 'stop');
    if (!info) {
      if (json) process.stdout.write(JSON.stringify({ running: false }) + '\n');
      else process.stdout.write('a1 web is not running.\n');
      return 0;
    }
    if (argv.revoke) print(info, json, [`Ended ${info.ended} ${info.ended === 1 ? 'session' : 'sessions'} and every unused link; open pages were closed.`]);
    else print(info, json, ['Stopped a1 web; its pages were closed.']);
    return 0;
  }
  const bind = argv.bind ?? DEFAULT_BIND;
  const port = parsePort(argv.port);
  if ((argv.cert === undefined) !== (argv.key === undefined)) throw new UserError('Give both --cert and --key (a TLS certificate and its private key), or neither.');
  const cert = argv.cert === undefined ? undefined : readableFile(argv.cert, '--cert');
  const key = argv.key === undefined ? undefined : readableFile(argv.key, '--key');
  if (!isLoopback(bind) && !cert) {
    throw new UserError(`Serving on ${bind}, beyond this machine, needs TLS: give --cert FILE and --key FILE (a certificate and its private key), or leave out --bind to serve on 127.0.0.1 only.`);
  }
  const minutes = argv['idle-minutes'];
  if (minutes !== undefined && !(Number(minutes) > 0)) throw new UserError(`--idle-minutes takes a number of minutes above 0, not "${minutes}".`);

  // The tabs the page shows are the server's: start it as bare `a1` would.
  const server = await ServerClient.connect(paths, { start: true, profile });
  server.close();

  let info = await askWeb(paths, 'info');
  if (info && ((argv.port !== undefined && port !== 0 && port !== info.port) || (argv.bind !== undefined && bind !== info.bind))) {
    throw new UserError(`a1 web already serves this profile on ${info.bind} port ${info.port}; run "a1 web --stop" first to serve it elsewhere.`);
  }
  if (!info) {
    const entry = fs.realpathSync(process.argv[1]);
    const args = [entry, '__web', '--profile', profile, '--port', String(port), '--bind', bind];
    if (cert && key) args.push('--cert', cert, '--key', key);
    if (minutes !== undefined) args.push('--idle-minutes', String(Number(minutes)));
    const ready = await spawnReady(args, { env: withoutTabMarkers(process.env), timeoutMs: WEB_START_TIMEOUT_MS });
    if (ready.t !== 'line' && ready.t !== 'end') throw new UserError('a1 web did not start in time.');
    if (ready.t === 'line') {
      const status = parseStartStatus(ready.line, 'webReady');
      if (status instanceof ProtocolError) throw new UserError('a1 web sent an unreadable status; run "a1 web --stop", then try again.');
      if (status.kind === 'failed') throw new UserError(status.error.message);
    }
  }
  info = await askWeb(paths, 'mint');
  if (!info?.url) throw new UserError('a1 web started but does not answer; run "a1 web --stop", then try again.');
  print(info, json, [
    `a1 web: open ${info.url}`,
    ...(isLoopback(info.bind) ? [] : [`From another device, use this machine's name or address as your certificate names it, with port ${info.port}.`]),
    'The link works once, within 10 minutes; run a1 web again for another. "a1 web --revoke" ends every session.',
  ]);
  return 0;
}

export const webCommand = command<WebArgs>({
  path: ['web'],
  usage: 'a1 web [--port N] [--bind A] [--cert F --key F] [--json] [--revoke|--stop]',
  summary: 'see and answer your tabs from a browser: prints a one-time link',
  options: {
    port: { type: 'string', describe: `Port to serve on (default ${DEFAULT_WEB_PORT}; 0 picks a free one)` },
    bind: { type: 'string', describe: 'Address to serve on (default 127.0.0.1; any other needs --cert and --key)' },
    cert: { type: 'string', describe: 'TLS certificate file (PEM), for https' },
    key: { type: 'string', describe: "The certificate's private key file (PEM)" },
    // In --help only: the every-form list keeps each form within 80 columns.
    'idle-minutes': { type: 'string', describe: 'End a session after this many minutes with no page open (default 30)', internal: true },
    revoke: { type: 'boolean', describe: 'End every session and unused link, closing open pages' },
    stop: { type: 'boolean', describe: 'Stop serving the browser client' },
    json: { type: 'boolean', describe: 'Print stable JSON: url, port, pid, bind, tls, sessions' },
  },
  examples: [
    ['a1 web', 'print a link to open in a browser on this machine'],
    ['a1 web --bind 0.0.0.0 --cert cert.pem --key key.pem', 'serve over https to your phone on the same network'],
    ['a1 web --revoke', 'end every browser session'],
  ],
  run: web,
});
