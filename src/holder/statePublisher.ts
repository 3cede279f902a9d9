// The holder's state goes to the server and to every viewing client whenever it changes; title
// changes at most every TITLE_REPORT_INTERVAL_MS.
import type { FromHolder } from '../protocol/messages.js';
import { Timer, type Disposable } from '../disposable.js';
import type { HolderStateView } from './holderState.js';
import type { DataClients } from './dataClients.js';
import type { ChildView } from './childSlot.js';

/** Title changes reach the server at most this often: some agents animate their title, and
 * the picker only needs the latest. */
export const TITLE_REPORT_INTERVAL_MS = 500;

/** How long a title change waits: the rest of the interval since the last report, if any. */
export function titleDelayMs(reportedAt: number, now: number): number {
  return Math.max(0, reportedAt + TITLE_REPORT_INTERVAL_MS - now);
}

export class StatePublisher implements Disposable {
  private readonly titleTimer = new Timer();
  private titlePending = false;
  private titleReportedAt = 0;

  constructor(
    private readonly view: Pick<HolderStateView, 'state'>,
    private readonly server: { send(msg: FromHolder): void },
    private readonly clients: Pick<DataClients, 'sendToAttached'>,
    /** A closing tab reports no more titles. */
    private readonly child: Pick<ChildView, 'terminating'>,
  ) {}

  publish(): void {
    const state = this.view.state();
    this.server.send({ t: 'state', state });
    this.clients.sendToAttached({ t: 'state', state });
  }

  /** The newest title goes out at most every TITLE_REPORT_INTERVAL_MS, and the last one always. */
  titleChanged(): void {
    if (this.titlePending || this.child.terminating) return;
    this.titlePending = true;
    this.titleTimer.set(titleDelayMs(this.titleReportedAt, Date.now()), () => {
      this.titlePending = false;
      this.titleReportedAt = Date.now();
      this.publish();
    });
  }

  dispose(): void {
    this.titleTimer.dispose();
  }
}
