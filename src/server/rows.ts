// The registry's rows and the core's tabs are the same facts in two shapes: these pure mappings
// are the only place the two meet, so the commit adapter writes exactly what the core decided.
import type { TabPatch as RowPatch, TabRow } from '../store/tabRow.js';
import type { DurableTab, HolderReport, TabPatch } from './core/types.js';
import type { HolderState } from '../protocol/messages.js';

export function rowToDurable(row: TabRow): DurableTab {
  return {
    id: row.id,
    name: row.name,
    ord: row.ord,
    sessionId: row.sessionId,
    desired: row.desired,
    lifecycle: row.lifecycle,
    holder: row.holderInc ? { inc: row.holderInc, pid: row.holderPid, startTime: row.holderStart } : null,
    child: row.childPid && row.childInc ? { pid: row.childPid, inc: row.childInc, startTime: row.childStart } : null,
    lastExit: row.lastExit,
    controllerRev: row.controllerRev,
    spec: { kind: row.kind, cwd: row.cwd, command: row.command, nameSource: row.nameSource },
  };
}

export function durableToRow(tab: DurableTab, createdAt: number): Omit<TabRow, 'ord'> {
  return {
    id: tab.id,
    kind: tab.spec.kind,
    sessionId: tab.sessionId,
    name: tab.name,
    nameSource: tab.spec.nameSource,
    cwd: tab.spec.cwd,
    command: tab.spec.command,
    desired: tab.desired,
    lifecycle: tab.lifecycle,
    holderPid: tab.holder?.pid ?? null,
    holderStart: tab.holder?.startTime ?? null,
    holderInc: tab.holder?.inc ?? null,
    childPid: tab.child?.pid ?? null,
    childStart: tab.child?.startTime ?? null,
    childInc: tab.child?.inc ?? null,
    controllerRev: tab.controllerRev,
    lastExit: tab.lastExit,
    createdAt,
    viewedAt: null,
  };
}

export function patchToRow(p: TabPatch): RowPatch {
  const out: RowPatch = {};
  if (p.lifecycle !== undefined) out.lifecycle = p.lifecycle;
  if (p.desired !== undefined) out.desired = p.desired;
  if (p.sessionId !== undefined) out.sessionId = p.sessionId;
  if (p.controllerRev !== undefined) out.controllerRev = p.controllerRev;
  if (p.lastExit !== undefined) out.lastExit = p.lastExit;
  if (p.holder !== undefined) {
    out.holderInc = p.holder?.inc ?? null;
    out.holderPid = p.holder?.pid ?? null;
    out.holderStart = p.holder?.startTime ?? null;
  }
  if (p.child !== undefined) {
    out.childPid = p.child?.pid ?? null;
    out.childStart = p.child?.startTime ?? null;
    out.childInc = p.child?.inc ?? null;
  }
  if (p.spec !== undefined) {
    out.kind = p.spec.kind;
    out.cwd = p.spec.cwd;
    out.command = p.spec.command;
    out.nameSource = p.spec.nameSource;
  }
  return out;
}

/** What the core needs of a holder's state message. */
export function reportOf(state: HolderState): HolderReport {
  return {
    lifecycle: state.lifecycle,
    sessionId: state.agent?.sessionId ?? null,
    agentKind: state.agent?.kind ?? null,
    child: state.childPid && state.childInc ? { pid: state.childPid, inc: state.childInc, startTime: state.childStart } : null,
    exit: state.exit,
    glyph: state.glyph,
    title: state.title,
    agentName: state.agent?.name ?? null,
    agent: state.agent !== null,
    ...(state.cols > 0 && state.rows > 0 ? { size: { cols: state.cols, rows: state.rows } } : {}),
  };
}
