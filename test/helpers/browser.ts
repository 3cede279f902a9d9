// A real browser for the `a1 web` tests (issue 20): Debian's Chromium driven by playwright-core,
// never a browser playwright downloads. Missing Chromium fails the test with how to install it:
// the acceptance requires a real browser in `npm test`, so a silent skip would hide a gap.
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';
import { killAllWithEnv, startTimeOf } from './procs.js';

/** Debian's `chromium` package; A1_TEST_CHROMIUM names another Chromium executable. */
export const CHROMIUM_PATH = process.env.A1_TEST_CHROMIUM ?? '/usr/bin/chromium';

/** Headless, and quiet: no sandbox (CI runs as root), no GPU, nothing fetched behind the test's back. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The phone the issue names: 390×844 CSS pixels, touch. Two device pixels per CSS pixel, as
 * phones have at least: at one, a 120-column tab's text was a blur in the saved screenshot. */
export const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 };

/** Marks every process of one launch in its environment, so teardown can end any that
 * `close()` left behind, by pid (the /usr/bin/chromium wrapper and its zygotes included). */
export const RUN_MARKER = 'A1_BROWSER_TEST_RUN';

export interface TestBrowser {
  browser: Browser;
  /** The value of RUN_MARKER in the environment of this launch's processes. */
  run: string;
  /** A fresh context (own cookies) at phone size. */
  phone(): Promise<BrowserContext>;
  /** A fresh context (own cookies) at desktop size. */
  desktop(): Promise<BrowserContext>;
  /** Closes the browser and ends any of its processes still alive; idempotent. */
  close(): Promise<void>;
}

/** How long `browser.close()` may take before its processes are killed instead. */
const CLOSE_TIMEOUT_MS = 10_000;

/** Why `executable` cannot be the test browser (how to install it), or null when it can. */
export function chromiumMissing(executable = CHROMIUM_PATH): string | null {
  if (fs.existsSync(executable)) return null;
  return (
    `Chromium is needed for the browser tests and is not at ${executable}. Install Debian's package ` +
    '(as root: apt-get update && apt-get install -y chromium; .ci/run does it), or set A1_TEST_CHROMIUM to a Chromium executable.'
  );
}

export async function launchBrowser(executable = CHROMIUM_PATH): Promise<TestBrowser> {
  const missing = chromiumMissing(executable);
  if (missing !== null) throw new Error(missing);
  const run = randomUUID();
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  env[RUN_MARKER] = run;
  // No --user-data-dir: playwright makes a fresh profile per launch and removes it on close.
  const browser = await chromium.launch({ executablePath: executable, args: CHROMIUM_ARGS, env, headless: true });
  const contexts: BrowserContext[] = [];
  const context = async (options: BrowserContextOptions) => {
    const c = await browser.newContext(options);
    contexts.push(c);
    return c;
  };
  let closed = false;
  return {
    browser,
    run,
    phone: () => context(PHONE),
    desktop: () => context(DESKTOP),
    close: async () => {
      if (closed) return;
      closed = true;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        browser.close().catch(() => undefined),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
        }),
      ]);
      clearTimeout(timer);
      await killAllWithEnv(RUN_MARKER, run);
    },
  };
}

/** What `a1 web --json` prints (the contract of issue 20), with the URL's one-time token. */
export interface WebStart {
  url: string;
  port: number;
  /** The resident web process, which the test ends by pid (it is not the CLI that printed this). */
  pid: number;
  bind: string;
  tls: boolean;
  /** Live sessions, as the web process counts them. */
  sessions: number;
  token: string;
  /** The web process's start time when it was read, so that a recycled pid is never signalled. */
  startTime: string | null;
}

/** Runs `a1 web --port 0 --json ...args` with the test's `run` and reads what it printed. */
export async function startWeb(
  run: (...args: string[]) => Promise<{ code: number; stdout: string; stderr: string }>,
  ...args: string[]
): Promise<WebStart> {
  const r = await run('web', '--port', '0', '--json', ...args);
  if (r.code !== 0) throw new Error(`a1 web --json exited ${r.code}: ${r.stderr.trim()}`);
  const out = JSON.parse(r.stdout) as Omit<WebStart, 'token' | 'startTime'>;
  const token = new URL(out.url).searchParams.get('token');
  if (!token) throw new Error(`a1 web printed a URL without a token: ${out.url}`);
  return { ...out, token, startTime: startTimeOf(out.pid) };
}

/** Ends the web process by pid, only while that pid is still the process `a1 web` named. */
export function stopWebProcess(web: WebStart): void {
  if (web.startTime === null || startTimeOf(web.pid) !== web.startTime) return;
  try {
    process.kill(web.pid, 'SIGKILL');
  } catch {
    // It exited between the check and the signal.
  }
}
