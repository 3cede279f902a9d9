// Bare `a1` inside a tab refuses to nest (SPEC §15). "Inside a tab" is decided by the tab itself,
// not by its variables alone: a tab's child carries A1_TAB_ID and A1_BRIDGE, the socket its
// holder listens on for as long as the tab lives. The same variables copied into a shell that
// outlived its tab (an exported environment, a multiplexer started from a tab since closed) name
// a socket nobody listens on any more: they are stale, and must not lock the user out.
import net from 'node:net';

/** A live holder accepts at once (the kernel does, whatever the holder is busy with); a connect
 * still pending after this is taken as a live but loaded tab, so a1 refuses rather than nests. */
const BRIDGE_PROBE_MS = 1_000;

export interface TabMarkers {
  A1_TAB_ID?: string;
  A1_BRIDGE?: string;
}

/** Whether `env` is a live tab's: it names a tab and that tab's bridge still answers. */
export async function insideLiveTab(env: TabMarkers): Promise<boolean> {
  if (!env.A1_TAB_ID || !env.A1_BRIDGE) return false;
  return bridgeAnswers(env.A1_BRIDGE);
}

function bridgeAnswers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.createConnection({ path: socketPath });
    let settled = false;
    const done = (live: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(live);
    };
    const timer = setTimeout(() => done(true), BRIDGE_PROBE_MS);
    socket.once('connect', () => done(true));
    // No socket, nobody listening (ECONNREFUSED), or one this user may not reach: no tab this
    // process runs in.
    socket.on('error', () => done(false));
  });
}
