// Leaving the attach client: one dispose() of its store releases everything it holds, the
// outer terminal is restored on every path, and the parting message comes after.
import { writeSync } from '../outerTerminal.js';
import type { DisposableStore } from '../../disposable.js';

export class Leaving {
  /** Written to the main screen once the outer terminal is restored. */
  private message: string | undefined;
  private settle: (code: number) => void = () => undefined;
  /** The client's exit code, once it left. */
  readonly exitCode = new Promise<number>((resolve) => (this.settle = resolve));

  constructor(private readonly store: DisposableStore) {}

  /** Leaves with `code`, `message` on the main screen afterwards; later calls do nothing. */
  finish(code: number, message?: string): void {
    if (this.store.isDisposed) return;
    this.message = message && (message.endsWith('\n') ? message : message + '\n');
    this.store.dispose();
    this.settle(code);
  }

  /** Writes the parting message (the store calls it once the outer terminal is restored). */
  writeMessage(stdout: NodeJS.WriteStream): void {
    if (this.message) writeSync(stdout, this.message);
  }
}

/** What detaching tells the person: their tabs run on. */
export function detachMessage(running: number): string {
  return `\x1b[2m${running} ${running === 1 ? 'tab' : 'tabs'} still running · run a1 to return\x1b[0m\n`;
}
