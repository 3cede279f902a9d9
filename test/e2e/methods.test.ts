// Optional methods (SPEC §6; seed scenario "Newer client calls an unavailable method"): a client
// attached to a server that lacks one optional op keeps attaching and every unrelated operation;
// only that op is refused, in one sentence. A message of a type the peer does not know is
// dropped, never fatal to the connection.
import { afterEach, describe, expect, it } from 'vitest';
import { connectUnix } from '../../src/protocol/connection.js';
import { connectHandshake } from '../../src/protocol/handshake.js';
import { controlSchema } from '../../src/protocol/messages.js';
import { mergeSchemas, defineSchema, type Message } from '../../src/protocol/schema.js';
import { resolvePaths } from '../../src/paths.js';
import { readClientToken } from '../../src/security.js';
import { ServerError } from '../../src/client/serverClient.js';
import { e2e, KEY, listing, probeViewed, protocolClient, PROMPT_SEEN, tabNames, waitForListing, waitForStrip, type E2E } from './harness.js';
import { waitFor } from '../helpers/wait.js';

const F2 = '\x1bOQ';
/** What the client says of an op the server lacks (src/client/serverClient.ts unsupported). */
const lacks = (op: string): RegExp => new RegExp(`older version without "${op}"; all else works`);

let t: E2E;
afterEach(async () => {
  await t?.teardown();
});

/** An e2e profile whose server leaves `ops` out, as an older server would. */
function withServerLacking(ops: string): E2E {
  const made = e2e();
  made.env.A1_TEST_SERVER_LACKS = ops;
  return made;
}

describe('a server that lacks one optional op', () => {
  it('F2 and /sleep say so in one sentence and change nothing; attaching, creating, switching and typing still work', async () => {
    t = withServerLacking('rename,sleep');
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const [first] = (await waitForListing(t, ['agent'])).tabs.map((tab) => tab.id);

    a1.write(F2);
    await a1.waitForText(lacks('rename'));
    // No editor opened: what is typed next reaches the shell.
    await probeViewed(a1, first);

    a1.write(`${KEY.commandPrompt}sleep\r`);
    await a1.waitForText(lacks('sleep'));
    const after = await listing(t);
    expect(tabNames(after)).toEqual(['agent']);
    expect(after.tabs[0].status).toBe('running');

    a1.write(KEY.newTab);
    const l = await waitForListing(t, ['agent', 'agent 2']);
    await waitForStrip(a1, ['agent', 'agent 2'], 'agent 2');
    await probeViewed(a1, l.tabs[1].id);
  });

  it('a protocol client is refused that op locally, and the server answers one sent anyway with a typed error, keeping the connection', async () => {
    t = withServerLacking('rename,sleep');
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const [tab] = (await waitForListing(t, ['agent'])).tabs;

    const client = await protocolClient(t);
    try {
      expect(client.serves('rename')).toBe(false);
      expect(client.serves('sleep')).toBe(false);
      expect(client.serves('list')).toBe(true);
      const refused = await client.request('rename', { tabId: tab.id, name: 'x' }).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(ServerError);
      expect((refused as ServerError).code).toBe('unsupported');
      expect((await client.request('list')).tabs).toHaveLength(1);
    } finally {
      client.close();
    }

    // A newer client: its own message type and an op the server lacks, sent anyway.
    const paths = resolvePaths({ env: t.env });
    const newer = mergeSchemas(controlSchema, defineSchema({ future: { n: 'int' } }));
    const conn = await connectUnix(paths.serverSock, newer);
    try {
      await connectHandshake(conn, { role: 'client', key: readClientToken(paths.clientTokenFile)!, methods: ['topology', 'tickets', 'future'] });
      const replies: Message[] = [];
      conn.onMessage((m) => {
        if (m.t === 'reply') replies.push(m);
      });
      conn.send({ t: 'future', n: 1 });
      conn.send({ t: 'request', id: 1, op: 'rename', args: { tabId: tab.id, name: 'x' } });
      conn.send({ t: 'request', id: 2, op: 'list', args: {} });
      await waitFor(() => replies.length === 2, { what: 'both replies' });
      expect(replies[0]).toMatchObject({ id: 1, ok: false, error: { code: 'unknown-op' } });
      expect(replies[1]).toMatchObject({ id: 2, ok: true });
      expect(conn.closed).toBe(false);
    } finally {
      conn.close();
    }
    expect(tabNames(await listing(t))).toEqual(['agent']);
  });
});
