// The holder's state as the server and the viewing clients are told it (SPEC §6, §10): the tab
// and this holder, the child's part, the model's size and title, the controller the server
// chose, and the agent's status.
import type { HolderState } from '../protocol/messages.js';
import type { HolderInit } from '../protocol/holderInit.js';
import type { ChildView } from './childSlot.js';
import type { TerminalModel } from './terminalModel.js';
import type { AgentStatus } from './agentStatus.js';

export interface Controller {
  clientId: string | null;
  rev: number;
}

export class HolderStateView {
  /** Who controls the tab, as the server last set it. */
  controller: Controller = { clientId: null, rev: 0 };

  constructor(
    private readonly init: Pick<HolderInit, 'tabId' | 'holderInc'>,
    private readonly child: ChildView,
    private readonly model: Pick<TerminalModel, 'cols' | 'rows' | 'title'>,
    private readonly agent: Pick<AgentStatus, 'snapshot' | 'glyph'>,
  ) {}

  state(): HolderState {
    const { crashes, ...child } = this.child.snapshot();
    return {
      tabId: this.init.tabId,
      holderInc: this.init.holderInc,
      holderPid: process.pid,
      ...child,
      cols: this.model.cols,
      rows: this.model.rows,
      title: this.model.title,
      controller: this.controller,
      agent: this.agent.snapshot(),
      crashes,
      glyph: this.agent.glyph,
    };
  }
}
