// The optional methods each side names in its handshake (SPEC §6). A method the peer lacks
// disables only that operation: the caller asks `has` before it sends, and tells its user in one
// sentence instead of sending what the peer would not understand.

/** A control op the server serves is the method `op:<name>`. */
const OP_PREFIX = 'op:';

/**
 * The control ops of every generation-1 server from before servers named their ops: a server
 * that names none of its ops is such a one and serves all of these.
 */
export const LEGACY_CONTROL_OPS: readonly string[] = [
  'create',
  'ensureTab',
  'openSession',
  'view',
  'close',
  'sleep',
  'restart',
  'rename',
  'reorder',
  'claim',
  'hostStop',
  'sessions',
  'busy',
  'list',
  'hostStatus',
];

/** The control plane's methods of a server that serves `ops`, besides its plane-wide ones. */
export function controlMethods(planeMethods: readonly string[], ops: readonly string[]): string[] {
  return [...planeMethods, ...ops.map((op) => OP_PREFIX + op)];
}

/** What a peer said it has; the empty set for a peer that said nothing. */
export class PeerMethods {
  readonly #methods: ReadonlySet<string>;
  readonly #ops: ReadonlySet<string>;

  constructor(methods: readonly string[]) {
    this.#methods = new Set(methods);
    const ops = methods.filter((m) => m.startsWith(OP_PREFIX)).map((m) => m.slice(OP_PREFIX.length));
    this.#ops = new Set(ops.length > 0 ? ops : LEGACY_CONTROL_OPS);
  }

  /** A plane-wide method (e.g. `history` on the data plane). */
  has(method: string): boolean {
    return this.#methods.has(method);
  }

  /** A control op the server serves. */
  serves(op: string): boolean {
    return this.#ops.has(op);
  }
}
