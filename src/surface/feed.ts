// Feeding the headless terminal and learning which rows changed. Both rely on internals of the
// pinned @xterm/headless version, read defensively: when one is missing, the public (slower)
// path is taken and every row counts as changed, so a changed xterm.js costs speed, not output.
import type { IDisposable, Terminal } from '@xterm/headless';

interface WriteSyncCore {
  writeSync?(data: string | Uint8Array): void;
}

interface RefreshRowsCore {
  _inputHandler?: { onRequestRefreshRows?: (listener: (range: { start: number; end: number } | undefined) => void) => IDisposable };
}

function coreOf<T>(term: Terminal): T | undefined {
  return (term as unknown as { _core?: T })._core;
}

/**
 * Parses `data` now, before returning. The public `write` queues the data and parses it on a
 * timer (at least 1 ms later in Node), which idles the holder between PTY reads and delays each
 * echo; the PTY's own pause (the holder does not read while it parses) is the backpressure.
 */
export function writeNow(term: Terminal, data: Uint8Array | string): void {
  const core = coreOf<WriteSyncCore>(term);
  if (core && typeof core.writeSync === 'function') core.writeSync(data);
  else term.write(data);
}

/** Viewport rows `start..end` (inclusive) changed; `null` means every row. */
export type DirtyListener = (range: { start: number; end: number } | null) => void;

/**
 * Calls `listener` with the viewport rows each parse changed (scrolls included: xterm marks the
 * scrolled region). Returns null when the terminal does not report them: the caller must then
 * treat every row as changed after every write.
 */
export function watchDirtyRows(term: Terminal, listener: DirtyListener): IDisposable | null {
  const handler = coreOf<RefreshRowsCore>(term)?._inputHandler;
  if (!handler || typeof handler.onRequestRefreshRows !== 'function') return null;
  return handler.onRequestRefreshRows((range) => listener(range ?? null));
}
