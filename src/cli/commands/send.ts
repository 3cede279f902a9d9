// `a1 send TAB [-l|--literal] TEXT|KEYS…`: input to a tab, as its controller would type it (issue
// 18). The CLI is a client like any other: it views the tab without making it the last viewed,
// takes control only from nobody (SPEC §15; the server's core decides), and types over the
// holder's data plane, where the holder admits only its controller's input at its revision and
// encodes each key for the child's keyboard mode. Refused in one sentence when another client
// controls the tab.
import { HolderView } from '../../client/holderView.js';
import type { InputEvent } from '../../input/events.js';
import type { ViewGrant } from '../../protocol/requests.js';
import { batches, KEY_NAMES_HELP, sendEvents } from '../sendKeys.js';
import { command } from './entry.js';
import { UserError, withRunningServer, type Common } from './shared.js';
import { ONE_TAB, targetTabs } from './targetArgs.js';

type SendArgs = Common & { tab: string; keys?: (string | number)[]; literal?: boolean; '--'?: (string | number)[] };

/** Text goes in batches of this many characters, each acknowledged before the next: a large text
 * travels in bounded frames, and a refusal stops what follows. */
const BATCH_CHARS = 64 * 1024;
/** How long the holder may take to apply the transfer of control (a loaded machine). */
const CONTROL_WAIT_MS = 15_000;

const REFUSED: Readonly<Record<string, string>> = {
  'read-only': 'another client controls it',
  'not-running': 'its program is not running',
  'not-started': 'its program did not start',
  'queue-full': 'its program is not reading its input',
};

async function send(argv: SendArgs): Promise<number> {
  const words = [...(argv.keys ?? []), ...(argv['--'] ?? [])].map(String);
  if (words.length === 0) throw new UserError('Name what to send: text or key names.');
  const events = sendEvents(words, argv.literal === true);
  return withRunningServer(argv, async (server) => {
    const [tab] = await targetTabs(server, [String(argv.tab)]);
    const grant = await server.request('view', { tabId: tab.id, peek: true });
    if (grant.controller === false) throw new UserError(`Another client controls tab ${tab.name}; nothing was sent.`);
    await typeInto(grant, tab.id, tab.name, events);
    return 0;
  }, { required: true });
}

/** Waits for control, then types each batch and waits for the holder's answer to a question
 * asked after it: the holder handles its data connection in order, so by then the batch was
 * admitted, or refused (`inputRejected` comes first). */
async function typeInto(grant: ViewGrant, tabId: string, name: string, events: InputEvent[]): Promise<void> {
  const me = grant.ticket.clientId;
  let refused: string | null = null;
  let controlled: (() => void) | null = null;
  let otherController = false;
  const view = await HolderView.open(
    { socketPath: grant.socketPath, ticket: grant.ticket, proofKey: grant.proofKey, tabId, clientId: me, cols: 80, rows: 24 },
    {
      patch: () => undefined,
      state: () => undefined,
      controller: (c) => {
        if (c.clientId === me) controlled?.();
        else if (c.clientId !== null) otherController = true;
      },
      rejected: (reason) => (refused ??= reason),
      closed: () => undefined,
    },
  );
  try {
    if (!view.isController) {
      const got = await new Promise<boolean>((resolve) => {
        controlled = () => resolve(true);
        setTimeout(() => resolve(false), CONTROL_WAIT_MS).unref();
      });
      if (!got) throw new UserError(otherController ? `Another client controls tab ${name}; nothing was sent.` : `Tab ${name} did not hand over control in time; nothing was sent.`);
    }
    const all = batches(events, BATCH_CHARS);
    for (const [i, batch] of all.entries()) {
      view.input(batch, true);
      await view.history(0, 1);
      if (refused) {
        const why = REFUSED[refused] ?? refused;
        throw new UserError(i === 0 ? `Tab ${name} refused the input: ${why}; nothing was sent.` : `Tab ${name} refused the input after ${i} of ${all.length} parts: ${why}.`);
      }
    }
  } finally {
    view.close();
  }
}

export const sendCommand = command<SendArgs>({
  path: ['send'],
  usage: 'a1 send TAB [-l|--literal] TEXT|KEYS…',
  summary: 'type text and keys into a tab, as its controller would',
  positionals: {
    tab: ONE_TAB,
    keys: { describe: `Key names (${KEY_NAMES_HELP}) and text, sent in order with no spaces added; words after -- are sent too`, required: false, variadic: true },
  },
  options: { literal: { type: 'boolean', short: 'l', describe: 'Send every word as text, key names included' } },
  examples: [
    ['a1 send 2 "make test" Enter', 'type a command into the second tab and run it'],
    ['a1 send build C-c', 'interrupt what runs in the tab named "build"'],
    ['a1 send -l 2 Enter', 'type the word "Enter"'],
  ],
  run: send,
});
