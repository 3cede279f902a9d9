// Once faults stop: every paused server runs again, a writer exists, clients reconnect, every
// message is delivered and every spawn completes, and time passes. A hung holder stays hung: the
// heartbeat must find it. Then every tab that should run
// must be running or failed, and no holder may be left that no tab owns.
import { clientRequests, completeSpawn, connectClient, joinClient, deliver, deliverable, liveServers, startServer, tick, type World } from './world.js';

/** Rounds of delivery and ticks; each tick is longer than the restart budget's window / 3. */
const SETTLE_ROUNDS = 10;
const SETTLE_TICK_MS = 25_000;
/** More deliveries than any settled round needs; hitting it means a message storm. */
const MAX_DELIVERIES = 5_000;

function drain(w: World): void {
  for (let n = 0; n < MAX_DELIVERIES; n++) {
    const ready = deliverable(w);
    if (ready.length === 0) return;
    deliver(w, ready[0]);
  }
  w.violations.push('messages never stopped flowing');
}

export function settle(w: World): void {
  w.store.failNext = false;
  for (const s of w.servers) s.paused = false;
  for (let round = 0; round < SETTLE_ROUNDS && w.violations.length === 0; round++) {
    const owner = liveServers(w).find((s) => s.id === w.store.leaseOwner);
    // Someone attaches: a server with nobody and nothing to run may have exited for idleness.
    if (!w.clients.some((c) => c.alive)) joinClient(w);
    if (!owner) startServer(w);
    for (const c of w.clients) connectClient(w, c);
    drain(w);
    for (const h of w.holders) completeSpawn(w, h);
    drain(w);
    tick(w, SETTLE_TICK_MS);
    drain(w);
  }
}

export function convergenceViolations(w: World): string[] {
  const out: string[] = [];
  const writers = liveServers(w).filter((s) => s.state.phase === 'serving' && s.state.epoch === w.store.epoch);
  if (writers.length !== 1) return [`${writers.length} writers after settling`];
  const writer = writers[0].state;
  for (const v of writer.views) out.push(`${v.clientId}'s view of ${v.tabId} was never answered`);
  for (const tab of Object.values(w.store.tabs)) {
    if (tab.desired !== 'running' || tab.lifecycle === 'failed') continue;
    const h = w.holders.find((x) => x.alive && x.ready && x.tabId === tab.id && x.inc === tab.holder?.inc && x.pid === tab.holder?.pid);
    if (tab.lifecycle !== 'running' || !h || h.hung || h.lifecycle !== 'running' || !writer.tabs[tab.id]?.bound) {
      out.push(`tab ${tab.id} did not converge: ${tab.lifecycle}, holder ${JSON.stringify(tab.holder)} ${h ? `(${h.hung ? 'hung' : h.lifecycle})` : '(none live)'}`);
    } else if (tab.child?.pid !== h.child?.pid || tab.child?.inc !== h.child?.inc) {
      // A close or restart ends the recorded child: it must be the one that runs.
      out.push(`tab ${tab.id} records child ${JSON.stringify(tab.child)}, its holder runs ${JSON.stringify(h.child)}`);
    }
  }
  for (const h of w.holders) {
    if (!h.alive) continue;
    const tab = w.store.tabs[h.tabId];
    if (!tab || tab.holder?.inc !== h.inc || tab.holder.pid !== h.pid) out.push(`orphan holder ${h.pid} of tab ${h.tabId} (${h.inc})`);
  }
  return out;
}

/** Every run starts from a served world: a server, two clients, three running tabs, each client
 * viewing (and so controlling) one. */
export function prelude(w: World): void {
  startServer(w);
  joinClient(w);
  joinClient(w);
  const [a, b] = w.clients;
  clientRequests(w, a, { op: 'create', name: 'one', sessionId: null });
  clientRequests(w, b, { op: 'create', name: 'two', sessionId: 'sess0' });
  clientRequests(w, a, { op: 'create', name: 'three', sessionId: null });
  drain(w);
  for (const h of w.holders) completeSpawn(w, h);
  drain(w);
  const [t1, t2] = w.store.everTabs;
  clientRequests(w, a, { op: 'view', tabId: t1 });
  clientRequests(w, b, { op: 'view', tabId: t2 });
  drain(w);
}
