// A model world for the server core (SPEC §14): server incarnations contending for the OS writer
// lease, a durable registry that rechecks the epoch on every write, holder processes with their
// own epoch fence and controller, clients, and a network of FIFO channels that the schedule may
// deliver in any interleaving, delay, or (for client traffic) lose. Every effect of the core is
// carried out here as the real adapters would; what the world observes feeds the invariants.
import { applyMutation, boot, isTopology, step as realStep } from '../../src/server/core/index.js';
import type { ChildRef, Controller, CoreEvent, HolderReport, CoreState, DurableTab, Effect, Lifecycle, Mutation, Reply, Request, StepResult } from '../../src/server/core/index.js';

export type Reducer = (s: CoreState, e: CoreEvent) => StepResult;
export type Booter = typeof boot;
/** Low, so that schedules reach the limit. */
export const SIM_TABS_MAX = 4;
/** Below the tabs a run has, so starts queue. */
export const SIM_MAX_STARTS = 2;
/** Short against the schedule's ticks (up to 40 s each), so idleness arises within a run. */
export const SIM_IDLE_SUSPEND_MS = 60_000;
export const SIM_SERVER_IDLE_EXIT_MS = 120_000;

export interface LogEntry {
  serverId: string;
  epoch: number;
  rev: number;
  mutation: Mutation;
}

export interface Store {
  epoch: number;
  rev: number;
  tabs: Record<string, DurableTab>;
  log: LogEntry[];
  /** Who holds the OS lock, as the kernel sees it. */
  leaseOwner: string | null;
  /** A disk fault: the next write fails. */
  failNext: boolean;
  /** Every tab id ever created, so requests can name closed tabs. */
  everTabs: string[];
  /** Tabs whose agent session's resume record has expired (time passed while they were stopped). */
  expired: Set<string>;
  /** Resume records by tab: what lets an agent session resume automatically (SPEC §9). */
  records: Record<string, { sessionId: string; origin: string }[]>;
}

export interface SimServer {
  id: string;
  alive: boolean;
  paused: boolean;
  state: CoreState;
}

export interface Assignment {
  tabId: string;
  clientId: string | null;
  rev: number;
  serverId: string;
  epoch: number;
  /** The client had asked that server to view or claim the tab. */
  asked: boolean;
}

export interface SimHolder {
  pid: number;
  startTime: string;
  tabId: string;
  inc: string;
  alive: boolean;
  /** Its spawn completed: its socket answers. */
  ready: boolean;
  spawner: string;
  link: string | null;
  epochSeen: number;
  controller: Controller;
  assignment: Assignment | null;
  lifecycle: Lifecycle;
  sessionId: string | null;
  /** The child it runs now; a crash or a restart starts a new one, a failed child leaves none. */
  child: ChildRef | null;
  /** The agent works (a spinning glyph) or waits for nobody: only a quiet tab may sleep for idleness. */
  glyph: 'none' | 'working';
  crashes: number;
  /** Stopped (SIGSTOP, a hang): it reads nothing and says nothing until it runs again. */
  hung: boolean;
}

export interface SimClient {
  id: string;
  alive: boolean;
  server: string | null;
  viewing: string | null;
  knownRev: number;
  /** `${serverId} ${tabId}` for every view or claim sent. */
  asked: Set<string>;
  nextReq: number;
  requests: Map<number, Request>;
}

type Body =
  | { k: 'event'; event: CoreEvent }
  /** `asked`: a transfer names a live client that asked the sender for the tab, or nobody. */
  | { k: 'cmd'; epoch: number; cmd: Extract<Effect, { t: 'sendToHolder' }>['cmd']; asked: boolean }
  | { k: 'reply'; reqId: number; reply: Reply }
  | { k: 'notify'; rev: number }
  | { k: 'input'; clientId: string; rev: number };

export interface Msg {
  channel: string;
  to: string;
  lossy: boolean;
  body: Body;
}

export interface World {
  now: number;
  store: Store;
  servers: SimServer[];
  holders: SimHolder[];
  clients: SimClient[];
  net: Msg[];
  nextPid: number;
  nextServer: number;
  nextClient: number;
  /** Every input a holder admitted, with the controller assignment it was admitted under. */
  admitted: { tabId: string; clientId: string; rev: number; assignment: Assignment | null }[];
  violations: string[];
  /** How often each situation the invariants are about arose, so a test can show they do. */
  seen: Record<string, number>;
  step: Reducer;
  boot: Booter;
  /** A broken shell, to show the simulation catches it: it starts a tab beside a stray holder. */
  keepsStrays?: boolean;
}

export function newWorld(step: Reducer = realStep, booter: Booter = boot): World {
  return {
    now: 1_000_000,
    store: { epoch: 0, rev: 0, tabs: {}, log: [], leaseOwner: null, failNext: false, everTabs: [], expired: new Set(), records: {} },
    servers: [],
    holders: [],
    clients: [],
    net: [],
    nextPid: 100,
    nextServer: 1,
    nextClient: 1,
    admitted: [],
    violations: [],
    seen: {},
    step,
    boot: booter,
  };
}

export const holderAddr = (pid: number) => `h${pid}`;

function note(w: World, what: string): void {
  w.seen[what] = (w.seen[what] ?? 0) + 1;
}

function send(w: World, from: string, to: string, body: Body, lossy: boolean, channel = `${from}>${to}`): void {
  w.net.push({ channel, to, lossy, body });
}

export function serverById(w: World, id: string | null): SimServer | undefined {
  return id === null ? undefined : w.servers.find((s) => s.id === id);
}

export function liveServers(w: World): SimServer[] {
  return w.servers.filter((s) => s.alive);
}

/** The server whose socket clients reach: the newest live one. */
export function socketOwner(w: World): SimServer | undefined {
  return liveServers(w).at(-1);
}

// ---- servers ----

/** A start takes the OS lock or gives up silently (SPEC §15), then loads and boots the core. */
export function startServer(w: World): void {
  if (w.store.leaseOwner && serverById(w, w.store.leaseOwner)?.alive) return;
  const id = `s${w.nextServer++}`;
  if (liveServers(w).length > 0) note(w, 'server started beside a live one');
  w.store.leaseOwner = id;
  const durable = { epoch: w.store.epoch, rev: w.store.rev, tabs: structuredClone(w.store.tabs), resumeExpired: [...w.store.expired] };
  const { state, effects } = w.boot(id, w.now, durable, {
    tabsMax: SIM_TABS_MAX,
    maxConcurrentStarts: SIM_MAX_STARTS,
    idleSuspendMs: SIM_IDLE_SUSPEND_MS,
    serverIdleExitMs: SIM_SERVER_IDLE_EXIT_MS,
    agentKinds: [],
  });
  const server: SimServer = { id, alive: true, paused: false, state };
  w.servers.push(server);
  carryOut(w, server, effects);
  checkMemory(w, server);
  // Clients that lost their server reconnect to the new one (SPEC §10, reconnecting…).
  for (const c of w.clients) if (c.alive && !serverById(w, c.server)?.alive) connectClient(w, c);
}

export function killServer(w: World, server: SimServer): void {
  if (!server.alive) return;
  server.alive = false;
  if (w.store.leaseOwner === server.id) w.store.leaseOwner = null;
  w.net = w.net.filter((m) => m.to !== server.id && !m.channel.startsWith(`${server.id}>`));
  for (const h of w.holders) if (h.link === server.id) h.link = null;
  for (const c of w.clients) if (c.server === server.id) c.server = null;
}

/** Feeds one event to a server and carries out the effects, commits and verifications first. */
export function feed(w: World, server: SimServer, event: CoreEvent): void {
  if (!server.alive) return;
  const { state, effects } = w.step(server.state, event);
  server.state = state;
  carryOut(w, server, effects);
}

function carryOut(w: World, server: SimServer, effects: Effect[]): void {
  for (const fx of effects) {
    if (!server.alive) return;
    execute(w, server, fx);
  }
}

/** The registry's fence (Registry#checkFence): the durable epoch must still be the writer's own. */
function fenced(w: World, epoch: number): boolean {
  return w.store.epoch !== epoch;
}

function execute(w: World, server: SimServer, fx: Effect): void {
  switch (fx.t) {
    case 'commit':
      return feed(w, server, { t: 'committed', id: fx.id, result: commitToStore(w, server, fx) });
    case 'exit':
      if (fx.reason === 'hostStop') checkHostStopped(w, server);
      else if (fx.reason === 'idle') checkIdleExit(w, server);
      else note(w, 'fenced server exited');
      return killServer(w, server);
    case 'reply':
      return send(w, server.id, fx.clientId, { k: 'reply', reqId: fx.reqId, reply: fx.reply }, true);
    case 'notifyClients':
      for (const c of w.clients) if (c.alive && c.server === server.id) send(w, server.id, c.id, { k: 'notify', rev: fx.rev }, true);
      return;
  }
  if (fenced(w, fx.epoch)) return feed(w, server, { t: 'fenced' });
  switch (fx.t) {
    case 'spawnHolder':
      if (!w.keepsStrays && !clearStrays(w, fx.tabId, fx.inc)) return feed(w, server, { t: 'spawnFailed', tabId: fx.tabId, inc: fx.inc });
      // Clearing the way awaits processes' ends: the server hears of it later, and anything
      // (a close, a sleep, a host stop) may come first.
      return send(w, `clear${fx.inc}`, server.id, { k: 'event', event: { t: 'startCleared', tabId: fx.tabId, inc: fx.inc } }, false);
    case 'launchHolder':
      checkLaunch(w, server, fx.tabId, fx.inc);
      checkSingleIncarnation(w, fx.tabId, fx.inc);
      w.holders.push({
        pid: w.nextPid,
        startTime: `st${w.nextPid}`,
        tabId: fx.tabId,
        inc: fx.inc,
        alive: true,
        ready: false,
        spawner: server.id,
        link: server.id,
        epochSeen: fx.epoch,
        controller: { clientId: null, rev: 0 },
        assignment: null,
        lifecycle: 'running',
        sessionId: null,
        crashes: 0,
        hung: false,
        child: { pid: w.nextPid + 1, inc: `${fx.inc}/c0`, startTime: `st${w.nextPid + 1}` },
        glyph: 'none',
      });
      w.nextPid += 2;
      return;
    case 'verifyHolder': {
      const h = w.holders.find((x) => x.alive && x.ready && x.tabId === fx.tabId && x.inc === fx.ref.inc && (fx.ref.pid === null || (x.pid === fx.ref.pid && x.startTime === fx.ref.startTime)));
      if (!h) return feed(w, server, { t: 'holderGone', tabId: fx.tabId, inc: fx.ref.inc });
      if (h.hung) {
        // A pending incarnation that never answers proves nothing, not even its pid: the shell
        // starts the tab afresh and the orphan sweep deals with it. A recorded one lives (pid and
        // start time match) but never answers the handshake: it is left untouched.
        if (fx.ref.pid === null) return feed(w, server, { t: 'holderGone', tabId: fx.tabId, inc: fx.ref.inc });
        note(w, 'hung holder left unverified');
        return feed(w, server, { t: 'holderUnverifiable', tabId: fx.tabId, inc: fx.ref.inc });
      }
      h.epochSeen = Math.max(h.epochSeen, fx.epoch);
      relink(w, h, server.id);
      const facts = { pid: h.pid, startTime: h.startTime, controller: h.controller, ...holderReport(h) };
      note(w, fx.ref.pid === null ? 'pending holder adopted' : 'holder verified');
      return feed(w, server, { t: 'holderVerified', tabId: fx.tabId, inc: fx.ref.inc, facts });
    }
    case 'sendToHolder': {
      const h = w.holders.find((x) => x.alive && x.tabId === fx.tabId && x.inc === fx.inc);
      if (!h || h.link !== server.id) return;
      const cmd = fx.cmd;
      const c = cmd.t === 'setController' ? w.clients.find((x) => x.id === cmd.clientId) : undefined;
      const asked = cmd.t !== 'setController' || cmd.clientId === null || (c !== undefined && c.alive && c.asked.has(`${server.id} ${fx.tabId}`));
      send(w, server.id, holderAddr(h.pid), { k: 'cmd', epoch: fx.epoch, cmd: fx.cmd, asked }, false);
      return;
    }
    case 'kill': {
      const h = w.holders.find((x) => x.alive && x.pid === fx.pid && x.startTime === fx.startTime);
      if (h?.hung) note(w, 'hung holder killed');
      if (h) killHolder(w, h);
      return;
    }
    case 'putResumeRecord': {
      // A record for a tab the registry no longer has would let a closed tab's session resume.
      if (!w.store.tabs[fx.tabId]) return void w.violations.push(`${server.id} recorded resume authority (${fx.origin}) for tab ${fx.tabId}, which is closed`);
      note(w, `resume record (${fx.origin})`);
      (w.store.records[fx.tabId] ??= []).push({ sessionId: fx.sessionId, origin: fx.origin });
      return;
    }
    case 'dropResumeRecords': {
      const kept = (w.store.records[fx.tabId] ?? []).filter((r) => fx.origin !== 'all' && r.origin !== fx.origin);
      if (w.store.records[fx.tabId]) w.store.records[fx.tabId] = kept;
      return;
    }
    case 'sweepOrphans':
      for (const h of w.holders) {
        if (h.alive && !fx.owned.some((o) => o.tabId === h.tabId && o.inc === h.inc)) killHolder(w, h);
      }
      return;
  }
}

function commitToStore(w: World, server: SimServer, fx: Extract<Effect, { t: 'commit' }>): 'ok' | 'fenced' | 'failed' {
  const st = w.store;
  if (st.failNext) {
    st.failNext = false;
    note(w, 'write failed');
    return 'failed';
  }
  const m = fx.mutation;
  if (m.t === 'startEpoch') {
    // Only a lease holder boots; the lock was taken before the core started.
    st.epoch = m.epoch;
  } else if (fenced(w, fx.epoch)) {
    return 'fenced';
  }
  const rev = isTopology(m) ? st.rev + 1 : st.rev;
  if (m.t === 'retireTab' && m.reason === 'closed') note(w, 'tab closed');
  if (m.t === 'retireTab' && m.reason === 'expired') {
    note(w, 'expired session moved to history');
    const t = st.tabs[m.id];
    if (!t || !st.expired.has(m.id) || t.lifecycle !== 'asleep' || t.desired !== 'running') {
      w.violations.push(`${server.id} moved tab ${m.id} to history as expired, but it was ${t ? `${t.lifecycle}, wanted ${t.desired}` : 'gone'}`);
    }
  }
  if (m.t === 'retireTab') {
    // Closing revokes the tab's resume authority in the same transaction.
    st.expired.delete(m.id);
    delete st.records[m.id];
  }
  if (m.t === 'update' && m.patch.lifecycle === 'failed') note(w, 'tab failed');
  if (m.t === 'update' && m.patch.controllerRev) note(w, 'controller transferred');
  if (m.t === 'update' && m.patch.lifecycle === 'asleep') note(w, 'tab slept');
  if (m.t === 'update' && m.patch.desired === 'running') note(w, 'sleeping tab woken');
  if (m.t === 'update' && m.patch.lifecycle === 'starting' && m.patch.holder === null && st.tabs[m.id]?.lifecycle === 'failed') note(w, 'failed tab restarted');
  if (fx.rev !== rev) w.violations.push(`${server.id} committed at revision ${fx.rev}, the registry is at ${st.rev}`);
  const last = st.log.at(-1);
  if (last && last.epoch > fx.epoch) w.violations.push(`${server.id} committed under epoch ${fx.epoch} after epoch ${last.epoch}`);
  const other = st.log.find((e) => e.epoch === fx.epoch && e.serverId !== server.id);
  if (other) w.violations.push(`two registry writers under epoch ${fx.epoch}: ${other.serverId} and ${server.id}`);
  st.tabs = applyMutation(st.tabs, m, (t) => t);
  st.rev = rev;
  if (m.t === 'insertTab') st.everTabs.push(m.tab.id);
  st.log.push({ serverId: server.id, epoch: fx.epoch, rev, mutation: m });
  checkSessions(w);
  const count = Object.keys(st.tabs).length;
  if (count > SIM_TABS_MAX) w.violations.push(`the registry holds ${count} tabs, past the limit of ${SIM_TABS_MAX}`);
  return 'ok';
}

function checkSessions(w: World): void {
  const seen = new Map<string, string>();
  for (const t of Object.values(w.store.tabs)) {
    if (!t.sessionId) continue;
    const other = seen.get(t.sessionId);
    if (other) w.violations.push(`agent session ${t.sessionId} is held by tabs ${other} and ${t.id}`);
    seen.set(t.sessionId, t.id);
  }
}

/** The writer's memory must be the registry: nothing it believes committed may be missing. */
export function checkMemory(w: World, server: SimServer): void {
  if (!server.alive || server.state.phase !== 'serving' || server.state.epoch !== w.store.epoch) return;
  const mem = server.state.tabs;
  const starting = Object.values(mem).filter((t) => t.starting).length;
  if (starting > SIM_MAX_STARTS) w.violations.push(`${server.id} has ${starting} spawns in flight, past the limit of ${SIM_MAX_STARTS}`);
  if (starting === SIM_MAX_STARTS && Object.values(mem).some((t) => t.desired === 'running' && !t.starting && !t.verifying && !t.bound && t.holder === null && t.lifecycle !== 'failed' && t.lifecycle !== 'asleep')) note(w, 'start waited for a slot');
  const ids = Object.keys(mem).sort().join(',');
  const durable = Object.keys(w.store.tabs).sort().join(',');
  if (ids !== durable) {
    w.violations.push(`${server.id} holds tabs [${ids}] but the registry holds [${durable}]`);
    return;
  }
  for (const id of Object.keys(mem)) {
    const a = mem[id];
    const b = w.store.tabs[id];
    const pick = (t: DurableTab) => JSON.stringify([t.name, t.ord, t.sessionId, t.desired, t.lifecycle, t.holder, t.child, t.controllerRev]);
    if (pick(a) !== pick(b)) w.violations.push(`${server.id}'s tab ${id} is ${pick(a)} but the registry has ${pick(b)}`);
  }
  if (server.state.rev !== w.store.rev) w.violations.push(`${server.id} is at revision ${server.state.rev}, the registry at ${w.store.rev}`);
}

/** A server exits for idleness only with no client and nothing running that should run. */
function checkIdleExit(w: World, server: SimServer): void {
  note(w, 'server exited idle');
  const clients = Object.keys(server.state.clients);
  if (clients.length > 0) w.violations.push(`${server.id} exited idle with clients ${clients.join(',')}`);
  for (const t of Object.values(server.state.tabs)) {
    if (t.desired === 'running' && (t.lifecycle === 'running' || t.lifecycle === 'starting')) w.violations.push(`${server.id} exited idle while tab ${t.id} was ${t.lifecycle}`);
  }
}

/** A host stop ends every holder the stopping server had, and keeps every tab, asleep. */
function checkHostStopped(w: World, server: SimServer): void {
  if (server.state.epoch !== w.store.epoch) return;
  note(w, 'host stopped');
  for (const h of w.holders) {
    if (h.alive && h.ready && h.link === server.id) w.violations.push(`holder ${h.pid} of tab ${h.tabId} outlived the host stop`);
  }
  for (const t of Object.values(w.store.tabs)) {
    if (t.holder || (t.lifecycle !== 'asleep' && t.lifecycle !== 'failed')) w.violations.push(`tab ${t.id} is ${t.lifecycle} with holder ${JSON.stringify(t.holder)} after the host stop`);
  }
}

/** The shell's check before a start (holderIO.spawn): a holder of the tab that no row owns any
 * more (a spawn that outlived its server, one a host stop missed) is a stray, found by its
 * markers. One that proves itself is ended first; one that does not (still starting, or hung)
 * is left untouched, and the start is refused: the tab reports the conflict. */
function clearStrays(w: World, tabId: string, inc: string): boolean {
  const strays = w.holders.filter((h) => h.alive && h.tabId === tabId && h.inc !== inc);
  if (strays.some((h) => !h.ready || h.hung)) {
    note(w, 'start refused beside an unverifiable stray');
    return false;
  }
  for (const h of strays) {
    note(w, 'stray holder ended before a start');
    killHolder(w, h);
  }
  return true;
}

/** A tab never has two live holders: a start beside an earlier incarnation that still lives
 * would run the tab, and its agent session, twice. */
function checkSingleIncarnation(w: World, tabId: string, inc: string): void {
  for (const h of w.holders) {
    if (h.alive && h.tabId === tabId) w.violations.push(`tab ${tabId} starts holder ${inc} while holder ${h.pid} (${h.inc}) still lives: two live incarnations`);
  }
}

/** A start whose tab closed while its way was being cleared is never launched (SPEC §9). */
function checkLaunch(w: World, server: SimServer, tabId: string, inc: string): void {
  if (server.state.epoch !== w.store.epoch || w.store.tabs[tabId]) return;
  w.violations.push(`${server.id} launched holder ${inc} for closed tab ${tabId}`);
}

/** A spawn that completes after its tab was retired is killed before it is bound (SPEC §9). */
function checkLateSpawn(w: World, server: SimServer, tabId: string, pid: number): void {
  if (!server.alive || server.state.epoch !== w.store.epoch || w.store.tabs[tabId]) return;
  note(w, 'spawn completed after its close');
  if (w.holders.some((h) => h.pid === pid && h.alive)) w.violations.push(`holder ${pid} of closed tab ${tabId} survived its spawn's completion`);
}

// ---- holders ----

/** A holder reports to the server that verified it last. The old server's connection stays open
 * while that server lives: its commands in flight still arrive, and meet the holder's epoch fence. */
function relink(w: World, h: SimHolder, serverId: string): void {
  const toOld = `${holderAddr(h.pid)}>${h.link}`;
  if (h.link && h.link !== serverId) w.net = w.net.filter((m) => m.channel !== toOld);
  h.link = serverId;
}

/** Messages in flight on a holder's link are lost with it. */
function dropLink(w: World, h: SimHolder): void {
  const addr = holderAddr(h.pid);
  w.net = w.net.filter((m) => !(m.to === addr || m.channel.startsWith(`${addr}>`)) || m.body.k === 'input');
}

function reportToLink(w: World, h: SimHolder, event: CoreEvent): void {
  if (h.link && serverById(w, h.link)?.alive) send(w, holderAddr(h.pid), h.link, { k: 'event', event }, false);
}

function stateEvent(h: SimHolder): CoreEvent {
  return { t: 'holderState', tabId: h.tabId, inc: h.inc, report: holderReport(h) };
}

/** What the holder says of itself with every state; its child's exits are not modelled. */
function holderReport(h: SimHolder): HolderReport {
  return { lifecycle: h.lifecycle, sessionId: h.sessionId, agentKind: null, child: h.child, exit: null, glyph: h.glyph };
}

/** The holder starts a new child (after a crash, or when told to). */
function newChild(w: World, h: SimHolder, why: string): void {
  const pid = w.nextPid++;
  h.child = { pid, inc: `${h.inc}/${why}${w.nextPid}`, startTime: `st${pid}` };
}

export function killHolder(w: World, h: SimHolder): void {
  if (!h.alive) return;
  h.alive = false;
  const link = h.link;
  // What it already wrote to its sockets is still read by the server (then the end of the link);
  // what was written to it is lost.
  w.net = w.net.filter((m) => m.to !== holderAddr(h.pid));
  // The server sees its link close; a spawn in flight fails.
  if (!h.ready) {
    if (serverById(w, h.spawner)?.alive) send(w, `proc${h.pid}`, h.spawner, { k: 'event', event: { t: 'spawnFailed', tabId: h.tabId, inc: h.inc } }, false);
  } else if (link && serverById(w, link)?.alive) {
    send(w, `proc${h.pid}`, link, { k: 'event', event: { t: 'linkClosed', tabId: h.tabId, inc: h.inc } }, false);
  }
}

export function completeSpawn(w: World, h: SimHolder): void {
  if (!h.alive || h.ready) return;
  h.ready = true;
  // The spawner learns the pid from the process it spawned, not over the holder's socket.
  if (serverById(w, h.spawner)?.alive) {
    send(w, `proc${h.pid}`, h.spawner, { k: 'event', event: { t: 'spawned', tabId: h.tabId, inc: h.inc, pid: h.pid, startTime: h.startTime } }, false);
  }
}

export function crashChild(w: World, h: SimHolder): void {
  if (!h.alive || !h.ready || h.hung || h.lifecycle === 'failed') return;
  h.crashes++;
  // The holder restarts its own child; the third crash fails the tab (SPEC §10).
  if (h.crashes >= 3) {
    h.lifecycle = 'failed';
    h.child = null;
  } else newChild(w, h, 'c');
  reportToLink(w, h, stateEvent(h));
}

export function bridgeReport(w: World, h: SimHolder, sessionId: string): void {
  if (!h.alive || !h.ready || h.hung) return;
  h.sessionId = sessionId;
  reportToLink(w, h, stateEvent(h));
}

/** Time passes while tabs are stopped: every sleeping agent tab's resume record expires. */
export function recordsExpire(w: World): void {
  for (const t of Object.values(w.store.tabs)) if (t.lifecycle === 'asleep' && t.sessionId) w.store.expired.add(t.id);
}

/** The agent starts or finishes a piece of work. */
export function agentWorks(w: World, h: SimHolder): void {
  if (!h.alive || !h.ready || h.hung) return;
  h.glyph = h.glyph === 'none' ? 'working' : 'none';
  reportToLink(w, h, stateEvent(h));
}

/** SIGSTOP, or SIGCONT when it was stopped. */
export function hangOrResumeHolder(w: World, h: SimHolder): void {
  if (!h.alive || !h.ready) return;
  h.hung = !h.hung;
  if (h.hung) note(w, 'holder hung');
}

export function breakLink(w: World, h: SimHolder): void {
  if (!h.alive || !h.ready || !h.link) return;
  const link = h.link;
  dropLink(w, h);
  h.link = null;
  if (serverById(w, link)?.alive) send(w, `proc${h.pid}`, link, { k: 'event', event: { t: 'linkClosed', tabId: h.tabId, inc: h.inc } }, false);
}

function holderReceives(w: World, h: SimHolder, from: string, body: Body): void {
  if (body.k === 'input') {
    // Admission: only the current controller at its current revision (SPEC §3).
    if (body.clientId !== h.controller.clientId || body.rev !== h.controller.rev) note(w, 'input refused');
    if (body.clientId === h.controller.clientId && body.rev === h.controller.rev) {
      note(w, 'input admitted');
      w.admitted.push({ tabId: h.tabId, clientId: body.clientId, rev: body.rev, assignment: h.assignment });
      const a = h.assignment;
      if (!a || !a.asked || a.clientId !== body.clientId || a.rev !== body.rev) {
        w.violations.push(`input from ${body.clientId} admitted in ${h.tabId} under ${JSON.stringify(a)}`);
      }
    }
    return;
  }
  if (body.k !== 'cmd') return;
  // Holders reject lower epochs (SPEC §5).
  if (body.epoch < h.epochSeen) return note(w, 'stale epoch refused by a holder');
  h.epochSeen = body.epoch;
  if (body.cmd.t === 'restartChild') {
    // The holder starts its child again, with a fresh crash count (SPEC §10).
    if (h.lifecycle === 'running' && !body.cmd.force) return;
    note(w, 'child restarted by the user');
    h.crashes = 0;
    h.lifecycle = 'running';
    newChild(w, h, 'r');
    return reportToLink(w, h, stateEvent(h));
  }
  if (body.cmd.t === 'ping') return reportToLink(w, h, { t: 'pong', tabId: h.tabId, inc: h.inc });
  const { clientId, rev } = body.cmd;
  if (rev > h.controller.rev) {
    h.controller = { clientId, rev };
    h.assignment = { tabId: h.tabId, clientId, rev, serverId: from, epoch: body.epoch, asked: body.asked };
  }
  if (h.controller.rev === rev) reportToLink(w, h, { t: 'controllerAck', tabId: h.tabId, inc: h.inc, rev });
}

// ---- clients ----

export function joinClient(w: World): void {
  const id = `c${w.nextClient++}`;
  w.clients.push({ id, alive: true, server: null, viewing: null, knownRev: 0, asked: new Set(), nextReq: 1, requests: new Map() });
  connectClient(w, w.clients.at(-1)!);
}

export function connectClient(w: World, c: SimClient): void {
  const target = socketOwner(w);
  if (!c.alive || !target || c.server === target.id) return;
  leaveServer(w, c);
  c.server = target.id;
  send(w, c.id, target.id, { k: 'event', event: { t: 'clientAttached', clientId: c.id } }, false);
  // A client that reattaches views again what it viewed (the real client's resubscribe).
  if (c.viewing) clientRequests(w, c, { op: 'view', tabId: c.viewing });
}

function leaveServer(w: World, c: SimClient): void {
  const old = serverById(w, c.server);
  w.net = w.net.filter((m) => !(m.channel === `${c.id}>${c.server}` || m.to === c.id));
  if (old?.alive) send(w, `close:${c.id}`, old.id, { k: 'event', event: { t: 'clientGone', clientId: c.id } }, false);
  c.server = null;
}

export function clientLeaves(w: World, c: SimClient): void {
  if (!c.alive) return;
  leaveServer(w, c);
  c.alive = false;
  w.net = w.net.filter((m) => !m.channel.startsWith(`${c.id}>`));
}

export function clientRequests(w: World, c: SimClient, req: Request): void {
  if (!c.alive || !c.server) return;
  const reqId = c.nextReq++;
  c.requests.set(reqId, req);
  if (req.op === 'view' || req.op === 'claim') c.asked.add(`${c.server} ${req.tabId}`);
  if (req.op === 'view') c.viewing = req.tabId;
  send(w, c.id, c.server, { k: 'event', event: { t: 'request', clientId: c.id, reqId, req } }, true);
}

/** A keystroke goes straight to the viewed tab's holder, stamped with the revision the client
 * was last told over its data connection. */
export function clientTypes(w: World, c: SimClient): void {
  if (!c.alive || !c.viewing) return;
  const h = w.holders.find((x) => x.alive && x.ready && x.tabId === c.viewing);
  if (!h) return;
  send(w, c.id, holderAddr(h.pid), { k: 'input', clientId: c.id, rev: h.controller.rev }, true, `${c.id}>${holderAddr(h.pid)}:data`);
}

function clientReceives(w: World, c: SimClient, from: string, body: Body): void {
  if (body.k === 'notify') {
    c.knownRev = Math.max(c.knownRev, body.rev);
    return;
  }
  if (body.k !== 'reply') return;
  const req = c.requests.get(body.reqId);
  c.requests.delete(body.reqId);
  const r = body.reply;
  if (!r.ok && r.code === 'conflict') note(w, 'stale revision refused');
  if (!r.ok && r.code === 'tabs-max') note(w, 'tab limit refused a create');
  if (!req || !r.ok) return;
  if (r.rev !== undefined) c.knownRev = Math.max(c.knownRev, r.rev);
  if (r.focused) note(w, 'held session focused');
  // No acknowledged mutation may be missing from the registry's committed history.
  const log = w.store.log;
  const has = (p: (e: LogEntry) => boolean) => log.some(p);
  let committed = true;
  if (req.op === 'create' && !r.focused) committed = has((e) => e.mutation.t === 'insertTab' && e.mutation.tab.id === r.tabId && e.rev === r.rev);
  else if (req.op === 'close' && r.closed) committed = has((e) => e.mutation.t === 'retireTab' && e.mutation.id === req.tabId && e.rev === r.rev);
  else if (req.op === 'rename') committed = has((e) => e.mutation.t === 'rename' && e.mutation.id === req.tabId && e.mutation.name === req.name && e.rev === r.rev);
  else if (req.op === 'reorder') committed = has((e) => e.rev === r.rev);
  if (!committed) w.violations.push(`${c.id} was told ${req.op} committed at revision ${r.rev} by ${from}, but the registry never committed it`);
}

// ---- the network ----

/** Messages that may be delivered now: the head of each channel whose receiver can run. */
export function deliverable(w: World): number[] {
  const heads = new Set<string>();
  const out: number[] = [];
  w.net.forEach((m, i) => {
    if (heads.has(m.channel)) return;
    heads.add(m.channel);
    const server = serverById(w, m.to);
    if (server && (!server.alive || server.paused)) return;
    if (w.holders.some((h) => h.hung && holderAddr(h.pid) === m.to)) return;
    out.push(i);
  });
  return out;
}

export function deliver(w: World, index: number): void {
  const [m] = w.net.splice(index, 1);
  const from = m.channel.split('>')[0].replace(/^close:/, '');
  const server = serverById(w, m.to);
  if (server) {
    if (m.body.k === 'event') {
      const event = m.body.event;
      feed(w, server, event);
      checkMemory(w, server);
      if (event.t === 'request' && server.state.views.some((v) => v.clientId === event.clientId && v.reqId === event.reqId)) note(w, 'view waited for its tab');
      if (event.t === 'spawned') checkLateSpawn(w, server, event.tabId, event.pid);
    }
    return;
  }
  const h = w.holders.find((x) => holderAddr(x.pid) === m.to);
  if (h) {
    if (h.alive) holderReceives(w, h, from, m.body);
    return;
  }
  const c = w.clients.find((x) => x.id === m.to);
  if (c?.alive) clientReceives(w, c, from, m.body);
}

export function tick(w: World, dt: number): void {
  w.now += dt;
  for (const s of liveServers(w)) {
    if (s.paused) continue;
    const before = w.store.log.length;
    feed(w, s, { t: 'tick', now: w.now });
    if (w.store.log.slice(before).some((e) => e.mutation.t === 'update' && e.mutation.patch.desired === 'stopped')) note(w, 'idle tab slept');
    checkMemory(w, s);
  }
}
