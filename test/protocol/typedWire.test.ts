// The typed wire (issue 17): each plane's message types are derived from its declared schema and
// split by direction. The type checks here run in `npm run build` (tsc covers the tests); the
// run-time checks make sure every declared message has exactly one direction.
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  CHILD_TO_HOLDER,
  CLIENT_TO_HOLDER,
  CONTROL_TO_SERVER,
  SERVER_TO_HOLDER,
  bridgeSchema,
  controlSchema,
  dataSchema,
  holderSchema,
  type ControlToClient,
  type ControlToServer,
  type DataToClient,
  type DataToHolder,
  type FromHolder,
  type HolderState,
  type TabInfo,
} from '../../src/protocol/messages.js';
import type { Connection } from '../../src/protocol/connection.js';
import type { SurfacePatch } from '../../src/surface/types.js';
import type { InputEvent } from '../../src/input/events.js';
import { validateMessage } from '../../src/protocol/schema.js';
import { ProtocolError } from '../../src/protocol/errors.js';

describe('the typed wire', () => {
  it('gives every message of every plane one direction, and no direction names an undeclared one', () => {
    const planes = [
      { schema: controlSchema, one: CONTROL_TO_SERVER },
      { schema: holderSchema, one: SERVER_TO_HOLDER },
      { schema: dataSchema, one: CLIENT_TO_HOLDER },
      { schema: bridgeSchema, one: CHILD_TO_HOLDER },
    ];
    for (const { schema, one } of planes) {
      const types = Object.keys(schema);
      for (const t of one) expect(types).toContain(t);
      // The other direction is the rest, and it is not empty: each plane has answers.
      expect(types.filter((t) => !(one as readonly string[]).includes(t)).length).toBeGreaterThan(0);
    }
  });

  it('types fields from their specs and refines the coarse ones', () => {
    expectTypeOf<Extract<DataToClient, { t: 'surface' }>['patch']>().toEqualTypeOf<SurfacePatch>();
    expectTypeOf<Extract<DataToClient, { t: 'state' }>['state']>().toEqualTypeOf<HolderState>();
    expectTypeOf<Extract<DataToHolder, { t: 'input' }>['events']>().toEqualTypeOf<InputEvent[]>();
    expectTypeOf<Extract<DataToHolder, { t: 'resize' }>['cols']>().toEqualTypeOf<number>();
    expectTypeOf<Extract<ControlToClient, { t: 'snapshot' }>['tabs']>().toEqualTypeOf<TabInfo[]>();
    expectTypeOf<Extract<ControlToClient, { t: 'snapshot' }>['viewedTab']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Extract<FromHolder, { t: 'state' }>['state']>().toEqualTypeOf<HolderState>();
    expectTypeOf<ControlToServer['t']>().toEqualTypeOf<'subscribe' | 'watch' | 'request'>();
  });

  it('a typed connection sends only its own direction (checked by the compiler)', () => {
    const send = (conn: Connection<ControlToClient, ControlToServer>): void => {
      conn.send({ t: 'subscribe', clientId: 'c', cols: 80, rows: 24 });
      // @ts-expect-error a client never sends a snapshot
      conn.send({ t: 'snapshot', rev: 1, epoch: 1, serverPid: 1, tabs: [], notices: [] });
      // @ts-expect-error cols is an int, not a string
      conn.send({ t: 'subscribe', clientId: 'c', cols: '80', rows: 24 });
    };
    expect(typeof send).toBe('function');
    // What the compiler refuses, the schema refuses at run time too.
    expect(validateMessage(controlSchema, { t: 'subscribe', clientId: 'c', cols: '80', rows: 24 })).toBeInstanceOf(ProtocolError);
  });
});
