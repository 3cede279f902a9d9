// The data the server core reasons over (SPEC §5, §9, §10, §15): its state, the events it is fed
// and the effects it asks its adapters to carry out. Plain data only, so the core can be driven by
// the socket/PTY/SQLite shell and by the deterministic simulation alike.

import type { Lifecycle } from '../../tabLifecycle.js';

/** Re-exported so the core's plain data is all importable from the core (src/tabLifecycle.ts declares it). */
export type { Lifecycle };

/** A holder incarnation; pid and start time are null until its spawn completed and was bound. */
export interface HolderRef {
  inc: string;
  pid: number | null;
  startTime: string | null;
}

export interface Controller {
  clientId: string | null;
  rev: number;
}

/** How the child last ended, as the holder saw it. */
export interface ExitStatus {
  code: number | null;
  signal: number | null;
}

/** A holder's child incarnation: the process a close or restart must end (SPEC §9). */
export interface ChildRef {
  pid: number;
  inc: string;
  /** Its native start time, null where unknown: what verifies it once its holder is gone. */
  startTime: string | null;
}

/** What a tab runs and where, as the user asked: carried to the registry and the spawn, never
 * decided on here. */
export interface TabSpec {
  /** `shell`, or an agent kind of the config. */
  kind: string;
  cwd: string;
  command: string[] | null;
  nameSource: 'user' | 'default' | 'auto';
}

export const DEFAULT_TAB_SPEC: TabSpec = { kind: 'shell', cwd: '', command: null, nameSource: 'default' };

/** What the next holder start of a tab uses: the creating client's environment, umask and size,
 * or a fresh start of its agent (`f`). Carried, not decided on. */
export interface StartOptions {
  env?: Record<string, string>;
  umask?: number;
  cols?: number;
  rows?: number;
  fresh?: boolean;
}

/** What the registry keeps of a tab, as far as the core's decisions go. */
export interface DurableTab {
  id: string;
  name: string;
  ord: number;
  sessionId: string | null;
  desired: 'running' | 'stopped';
  lifecycle: Lifecycle;
  /** Committed before the spawn (pending incarnation), completed with pid and start at bind. */
  holder: HolderRef | null;
  /** The child the bound holder last reported running; null with no holder. */
  child: ChildRef | null;
  lastExit: ExitStatus | null;
  controllerRev: number;
  spec: TabSpec;
}

/** What the config bounds, as far as the core's decisions go. */
export interface CoreLimits {
  tabsMax: number;
  /** Holder spawns in flight at once (tabsMaxConcurrentStarts, SPEC §12); the rest wait their turn. */
  maxConcurrentStarts: number;
  /** An unviewed, quiet, resumable tab sleeps after this long (idleSuspendMinutes; 0: never). */
  idleSuspendMs: number;
  /** The server exits after this long with no client and no running tab (serverIdleExitMinutes). */
  serverIdleExitMs: number;
  /** The agent kinds the config names: a bridge report of another kind keeps the tab's. */
  agentKinds: readonly string[];
  /** The config's tabCommand is an interactive shell (unset: it is, as $SHELL is): an agent
   * reporting from a tab that runs it is the shell's guest, and the tab stays a shell. */
  tabCommandIsShell?: boolean;
  /** tabsAutoName: tabs nobody named take their name from their program's title. */
  autoName?: boolean;
  /** The kinds whose sessions can resume (a resume command in the config): only their tabs may
   * sleep. Unset: every tab with a session can. */
  resumableKinds?: readonly string[];
}

/** The registry as a starting server loads it. */
export interface Durable {
  epoch: number;
  rev: number;
  tabs: Record<string, DurableTab>;
  /** Tabs whose agent session's resume record has expired (SPEC §9): a sleeping one that wants to
   * run moves to history instead of starting. */
  resumeExpired?: string[];
}

export interface CoreTab extends DurableTab {
  /** The incarnation whose spawn is in flight: at most one per tab. */
  starting: string | null;
  /** The holder is verified and linked. */
  bound: boolean;
  /** A verification (adoption or reconnection) is in flight. */
  verifying: boolean;
  /** Options for the next holder start, spent by it. */
  startOptions: StartOptions | null;
  /** The recorded incarnation that lived but did not prove itself: not verified again by this
   * server, and not replaced unless the user restarts the tab. */
  unverified: string | null;
  /** Heartbeat pings sent since the bound holder last said anything. */
  unanswered: number;
  /** Times of holder losses still inside the restart budget's window. */
  losses: number[];
  /** The controller the holder last acknowledged. */
  controller: Controller;
  /** A transfer sent to the holder and not yet acknowledged. */
  transfer: Controller | null;
  /** What the bound holder last reported; reconciliation commits any difference, so a report
   * whose write failed is not lost. */
  reported: HolderReport | null;
  /** Since when the tab has been continuously idle-suspendable (unviewed, quiet, resumable). */
  quietSince: number | null;
  /** The size its holder last reported, kept when the holder is lost: a replacement starts at
   * the controller's size, not at 120×40 (SPEC §7: resize is desired state). */
  size: TerminalSize | null;
  /** When this server last named the tab automatically: titles rename it at most so often. */
  autoNamedAt: number | null;
}

export interface WaitingView {
  clientId: string;
  reqId: number;
  tabId: string;
  until: number;
}

export interface CoreClient {
  viewing: string | null;
  /** A page of `a1 web` (issue 20): read-only until it claims a tab, so viewing never hands it
   * control, and a controller that leaves never hands control to it. */
  passive?: boolean;
}

export type Mutation =
  | { t: 'startEpoch'; epoch: number }
  | { t: 'insertTab'; tab: DurableTab }
  /** `closed` by a user; `expired`: its session could no longer resume, kept in history. */
  | { t: 'retireTab'; id: string; reason: 'closed' | 'expired' }
  | { t: 'rename'; id: string; name: string }
  /** A name made from what runs in the tab (issue 18): never over a name the user gave, and not a
   * topology change, so a title never makes a user's reorder or rename conflict. */
  | { t: 'autoName'; id: string; name: string }
  | { t: 'reorder'; order: string[] }
  | { t: 'update'; id: string; patch: TabPatch };

export type TabPatch = Partial<Pick<DurableTab, 'lifecycle' | 'holder' | 'child' | 'lastExit' | 'controllerRev' | 'sessionId' | 'desired' | 'spec'>>;

export type HolderCommand =
  | { t: 'setController'; clientId: string | null; rev: number }
  /** Start the child again in the same holder (`r`, `f`, `/restart`). */
  | { t: 'restartChild'; fresh: boolean; force: boolean }
  /** A heartbeat: anything the holder sends answers it. */
  | { t: 'ping' };

export type Reply =
  | { ok: true; rev?: number; tabId?: string; focused?: boolean; closed?: boolean; holderInc?: string; controller?: boolean; asleep?: boolean; restarted?: boolean; stopped?: number }
  | { ok: false; code: 'conflict' | 'no-tab' | 'unavailable' | 'write-failed' | 'bad-index' | 'not-resumable' | 'tabs-max' };

export type Request =
  | { op: 'create'; name: string; sessionId: string | null; expectedRev?: number; spec?: TabSpec; start?: StartOptions }
  | { op: 'close'; tabId: string; expectedRev?: number }
  | { op: 'rename'; tabId: string; name: string; expectedRev?: number }
  | { op: 'reorder'; tabId: string; toIndex: number; expectedRev?: number }
  | { op: 'view'; tabId: string }
  /** Checkpoint and stop (SPEC §9): only a tab with an agent session can sleep. */
  | { op: 'sleep'; tabId: string }
  /** `r`/`f` on an exited or failed tab; `force` (`/restart`) also restarts a running child. */
  | { op: 'restart'; tabId: string; fresh: boolean; force: boolean }
  /** The takeControl key (`force`) takes control from anyone; otherwise only from nobody. */
  | { op: 'claim'; tabId: string; force?: boolean }
  /** `a1 tabs host stop`: end every tab's processes, keep the tab set for the next start. */
  | { op: 'hostStop' };

export type CommitResult = 'ok' | 'fenced' | 'failed';

/** A terminal's size in cells. */
export interface TerminalSize {
  cols: number;
  rows: number;
}

/** What a holder reports with every state. */
export interface HolderReport {
  lifecycle: Lifecycle;
  /** The agent session the child reported over the bridge, and its agent kind. */
  sessionId: string | null;
  agentKind: string | null;
  child: ChildRef | null;
  exit: ExitStatus | null;
  /** The status glyph the holder decided (src/status/model.ts): idle suspension needs a quiet one. */
  glyph: string | null;
  /** Its terminal's size: the latest its controller applied. */
  size?: TerminalSize;
  /** The child's window title (OSC 0/2), and the name its agent reported over the bridge: what
   * an automatic name is made from. */
  title?: string;
  agentName?: string | null;
  /** Something in the tab reported over the bridge: it is an agent tab (SPEC §15), even when its
   * kind stays a shell's. */
  agent?: boolean;
}

/** What the holder says about itself when verified (adoption or reconnection). */
export interface HolderFacts extends HolderReport {
  pid: number;
  startTime: string;
  controller: Controller;
}

export type CoreEvent =
  | { t: 'boot'; serverId: string; now: number; durable: Durable; limits?: CoreLimits }
  /** The config was reloaded (`a1 tabs host reload`): its bounds hold from now on. */
  | { t: 'limits'; limits: CoreLimits }
  | { t: 'committed'; id: number; result: CommitResult }
  /** An adapter found the fence broken while carrying out a spawn, send or kill. */
  | { t: 'fenced' }
  /** Periodic work; `heartbeat` (default true) also pings the bound holders, so the shell can tick
   * more often than it beats. */
  | { t: 'tick'; now: number; heartbeat?: boolean }
  | { t: 'clientAttached'; clientId: string; passive?: boolean }
  /** Detach, crash or expiry of the client's attachment lease: all the same to the core. */
  | { t: 'clientGone'; clientId: string }
  | { t: 'request'; clientId: string; reqId: number; req: Request }
  /** Nothing of the tab's earlier or stray holders runs any more: the spawn may be launched, if
   * the tab still starts this incarnation (it may have closed, slept or stopped meanwhile). */
  | { t: 'startCleared'; tabId: string; inc: string }
  | { t: 'spawned'; tabId: string; inc: string; pid: number; startTime: string }
  | { t: 'spawnFailed'; tabId: string; inc: string }
  /** A process an earlier holder of the tab started still runs and could not be verified or
   * ended: the spawn was not made, since it would run a second agent beside it (SPEC §4, §9). */
  | { t: 'startRefused'; tabId: string; inc: string }
  | { t: 'holderVerified'; tabId: string; inc: string; facts: HolderFacts }
  | { t: 'holderGone'; tabId: string; inc: string }
  /** The recorded process lives but does not prove itself (SPEC §4): it is left untouched. */
  | { t: 'holderUnverifiable'; tabId: string; inc: string }
  | { t: 'pong'; tabId: string; inc: string }
  /** The link to a holder closed: the holder may live (reconnect) or not. */
  | { t: 'linkClosed'; tabId: string; inc: string }
  | { t: 'holderState'; tabId: string; inc: string; report: HolderReport }
  | { t: 'controllerAck'; tabId: string; inc: string; rev: number };

export type Effect =
  | { t: 'commit'; id: number; epoch: number; rev: number; mutation: Mutation }
  /** Clear the way for a holder (end what earlier holders of the tab left), then report
   * `startCleared`, `startRefused` or `spawnFailed`. */
  | { t: 'spawnHolder'; epoch: number; tabId: string; inc: string; options: StartOptions }
  /** Start the holder process the cleared `spawnHolder` prepared, then report `spawned` or
   * `spawnFailed`. */
  | { t: 'launchHolder'; epoch: number; tabId: string; inc: string }
  /** Connect, authenticate, and check pid, start time and incarnation (SPEC §4). */
  | { t: 'verifyHolder'; epoch: number; tabId: string; ref: HolderRef }
  | { t: 'sendToHolder'; epoch: number; tabId: string; inc: string; cmd: HolderCommand }
  /** Signal only after checking pid and start time. */
  | { t: 'kill'; epoch: number; tabId: string; pid: number; startTime: string }
  /** Retire every holder of the profile whose tab and incarnation no row owns (SPEC §10). */
  | { t: 'sweepOrphans'; epoch: number; owned: { tabId: string; inc: string }[] }
  /** Resume authority for the tab's agent session (SPEC §9): `live` while it runs, `sleep` when it
   * is put to sleep, `quit` at a host stop. Written under the fence, like a commit. */
  | { t: 'putResumeRecord'; epoch: number; tabId: string; sessionId: string; origin: 'live' | 'sleep' | 'quit' }
  /** A woken tab's checkpoint is spent (its live record is the authority from here), or a fresh
   * start abandoned the tab's session (`all` its records). */
  | { t: 'dropResumeRecords'; epoch: number; tabId: string; origin: 'sleep' | 'all' }
  | { t: 'reply'; clientId: string; reqId: number; reply: Reply }
  | { t: 'notifyClients'; rev: number; change: 'tab' | 'tabRemoved' | 'tabs' | 'hostStopping'; tabId: string | null }
  | { t: 'exit'; reason: 'fenced' | 'hostStop' | 'idle' };

/** What a commit does once the registry answers. */
export interface Pending {
  mutation: Mutation;
  /** Effects carried out only after the commit: replies, spawns, kills, notifications. */
  onOk: Effect[];
  onFail: Effect[];
  /** Runtime fields of a tab that change with the commit's outcome. */
  runtime?: { tabId: string; ok?: Partial<CoreTab>; fail?: Partial<CoreTab> };
  /** The spawn this commit's success launches, tracked until it completes or fails. */
  spawn?: { inc: string; tabId: string };
}

export interface CoreState {
  serverId: string;
  epoch: number;
  phase: 'starting' | 'serving' | 'stopping' | 'stopped';
  /** The host stop being carried out, answered when it is done. */
  hostStop: { clientId: string; reqId: number; stopped: number } | null;
  /** Since when the server has had no client and no running tab. */
  idleSince: number;
  /** From the registry at boot, used once serving begins. */
  resumeExpired: string[];
  /** A write failed (SPEC §5, degraded health): reconciliation waits for the next tick rather
   * than retrying a broken disk in a loop. */
  degraded: boolean;
  now: number;
  rev: number;
  limits: CoreLimits;
  tabs: Record<string, CoreTab>;
  clients: Record<string, CoreClient>;
  /** Views of a tab that is starting, answered once its holder is bound, or refused when it fails,
   * closes or the wait runs out. */
  views: WaitingView[];
  pending: Record<number, Pending>;
  /** Holder spawns launched and not yet completed or failed, by incarnation, whether or not their
   * tab still wants them: a host stop waits for every one, so none outlives the server. */
  spawns: Record<string, string>;
  /** Source of commit ids, tab ids and incarnations, unique within this server. */
  nextId: number;
}

export interface StepResult {
  state: CoreState;
  effects: Effect[];
}
