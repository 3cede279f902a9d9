// Pure helpers for sending surfaces as diffs: which rows changed between two extractions, and
// how two unsent patches fold into one (the render lane holds a single slot, SPEC §6).
import type { Cursor, Modes, Row, Run, SurfacePatch } from './types.js';

export function runsEqual(a: Run, b: Run): boolean {
  return a.s === b.s && a.fg === b.fg && a.bg === b.bg && a.fl === b.fl && a.link === b.link && a.uc === b.uc && a.w === b.w;
}

/** Rows are equal when they show the same runs (the row index is not compared). */
export function rowsEqual(a: Row, b: Row): boolean {
  if (a === b) return true;
  if (a.runs.length !== b.runs.length) return false;
  for (let i = 0; i < a.runs.length; i++) if (!runsEqual(a.runs[i], b.runs[i])) return false;
  return true;
}

/** Indices of `next` that differ from `prev`; every index when there is no comparable `prev`. */
export function changedRows(prev: readonly Row[] | null, next: readonly Row[]): number[] {
  const changed: number[] = [];
  const comparable = prev !== null && prev.length === next.length;
  for (let i = 0; i < next.length; i++) if (!comparable || !rowsEqual(prev[i], next[i])) changed.push(i);
  return changed;
}

export function cursorsEqual(a: Cursor, b: Cursor): boolean {
  return (
    a.x === b.x &&
    a.y === b.y &&
    a.visible === b.visible &&
    a.shape === b.shape &&
    a.blink === b.blink &&
    (a.defaultStyle ?? false) === (b.defaultStyle ?? false)
  );
}

export function modesEqual(a: Modes, b: Modes): boolean {
  return (
    a.appCursor === b.appCursor &&
    a.appKeypad === b.appKeypad &&
    a.bracketedPaste === b.bracketedPaste &&
    a.mouse === b.mouse &&
    a.mouseEncoding === b.mouseEncoding &&
    a.focus === b.focus &&
    a.altScreen === b.altScreen &&
    a.kittyFlags === b.kittyFlags
  );
}

/**
 * One patch with the effect of applying `older` then `newer`. Rows compose by overwrite, a full
 * newer replaces everything, and cursor, modes, title and size come from the newer. The holder
 * sends a full surface after every resize; should a diff of another size follow anyway, the
 * older rows that no longer fit are dropped and the result stays a diff.
 */
export function composePatches(older: SurfacePatch, newer: SurfacePatch): SurfacePatch {
  if (newer.full) return newer;
  const sameSize = older.cols === newer.cols && older.rows === newer.rows;
  const byY = new Map<number, Row>();
  for (const row of older.lines) if (row.y < newer.rows) byY.set(row.y, row);
  for (const row of newer.lines) byY.set(row.y, row);
  const lines = [...byY.values()].sort((a, b) => a.y - b.y);
  return { ...newer, full: older.full && sameSize, lines };
}
