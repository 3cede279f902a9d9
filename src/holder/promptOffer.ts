// The prompt a crash lost (SPEC §10): the controller's prompt as its keys and the agent's reports
// tell it, carried over a crash or a forced restart and typed back into the restarted agent's
// input as a paste, never sent. Prompt text: kept in this process's memory only, never logged,
// persisted or sent to the server.
import { encodeInput } from '../input/encode.js';
import type { InputEvent } from '../input/events.js';
import type { AgentPhase } from '../status/model.js';
import type { AgentState } from '../status/agentState.js';
import type { Logger } from '../log.js';
import type { ChildView } from './childSlot.js';
import type { DataClients } from './dataClients.js';
import type { TerminalModel } from './terminalModel.js';
import type { AgentStatus } from './agentStatus.js';
import { NO_PROMPT, lostPrompt, nextIncarnation, promptRulesFor, reducePrompt, touchesInput, type PromptEvent, type PromptState } from './pendingPrompt.js';

/** How long a restarted agent may take to say it is ready (its idle report) before the prompt its
 * predecessor lost is no longer offered: a resumed agent loads its whole conversation first. */
const OFFER_READY_WAIT_MS = 30_000;
/** After that report, how long it may take to turn on bracketed paste, without which the prompt
 * is never typed (a newline in it could submit). */
const OFFER_PASTE_MODE_WAIT_MS = 3_000;
/** An agent that reports nothing at its start (Codex) is taken to wait at its prompt once it has
 * bracketed paste on and has drawn nothing for this long: it finished painting its start screen. */
const OFFER_QUIET_MS = 1_000;
/** The data-plane method a client lists to be told about an offered prompt. */
export const PROMPT_OFFER_METHOD = 'promptOffer';

export type KeyPhases = Array<{ before: AgentPhase | null; after: AgentPhase | null }>;

export interface OfferDeps {
  readonly log: Logger;
  /** Its kind says whose prompt rules apply (none: a shell tab). */
  readonly agent: Pick<AgentStatus, 'kind'>;
  readonly model: Pick<TerminalModel, 'modes'>;
  /** The offer is typed into the running child's input. */
  readonly child: Pick<ChildView, 'write' | 'outputAt'>;
  /** Told, without the prompt, whether it was offered. */
  readonly viewers: Pick<DataClients, 'sendToAttached'>;
}

export class PromptOffer {
  private prompt: PromptState = NO_PROMPT;
  /** A restarted agent is awaited to offer it the prompt its predecessor lost: since when, and
   * when it was ready (it reported idle, or, for an agent that reports nothing at its start, went
   * quiet). */
  private wait: { since: number; readyAt: number | null } | null = null;

  constructor(private readonly deps: OfferDeps) {}

  /** At a child's death: a crash or a forced restart of an agent child (`died`) carries the prompt
   * that had no settled reply to the next incarnation; anything else forgets it. */
  childDied(died: boolean): void {
    this.wait = null;
    this.prompt = nextIncarnation(died ? lostPrompt(this.prompt) : null);
  }

  /** A new child runs: it is awaited when it has a prompt to be offered. */
  childStarted(now: number): void {
    if (this.prompt.carried && !this.prompt.carried.typed) this.wait = { since: now, readyAt: null };
  }

  /** The child printed: bracketed paste may be what the offer still waits for. */
  childPrinted(): void {
    if (this.wait?.readyAt) this.tryOffer();
  }

  /** The agent reported; idle says its prompt waits for input: the moment to offer. */
  reported(state: AgentState, now: number): void {
    this.step({ k: 'report', state });
    if (state === 'idle' && this.wait) {
      this.wait.readyAt ??= now;
      this.tryOffer();
    }
  }

  /** Admitted input, as the pending prompt follows it. Input that reaches the restarted child
   * before the lost prompt was offered means the user went on: the offer is dropped, not typed
   * into the middle of what they type. */
  admitted(events: InputEvent[], phases: KeyPhases, bracketedPaste: boolean): void {
    if (this.wait && events.some(touchesInput)) this.drop('input-first');
    events.forEach((ev, i) => this.step({ k: 'input', ev, ...phases[i], bracketedPaste }));
  }

  /** An agent that reports nothing at its start is ready once quiet with bracketed paste on; one
   * that did not get ready, or not for pastes, in time gets nothing typed. */
  tick(now: number): void {
    const wait = this.wait;
    if (!wait) return;
    const quiet = performance.now() - this.deps.child.outputAt >= OFFER_QUIET_MS;
    if (wait.readyAt === null && !promptRulesFor(this.deps.agent.kind).idleOnStart && this.deps.model.modes.modes.bracketedPaste && quiet) {
      wait.readyAt = now;
      this.tryOffer();
    } else if (wait.readyAt === null && now - wait.since >= OFFER_READY_WAIT_MS) this.drop('not-ready');
    else if (wait.readyAt !== null && now - wait.readyAt >= OFFER_PASTE_MODE_WAIT_MS) this.drop('no-bracketed-paste');
  }

  /** Types the lost prompt into the restarted agent's input once it is ready and takes bracketed
   * pastes: a paste, never an Enter, so nothing is sent until the user sends it. */
  private tryOffer(): void {
    const carried = this.prompt.carried;
    if (!this.wait?.readyAt || !carried || carried.typed) return;
    const modes = this.deps.model.modes.modes;
    if (!modes.bracketedPaste) return;
    if (!this.deps.child.write(encodeInput({ k: 'paste', s: carried.text }, modes))) return;
    this.wait = null;
    this.step({ k: 'offered' });
    this.deps.log.info('prompt-offered');
    this.tell(true);
  }

  private drop(reason: 'not-ready' | 'no-bracketed-paste' | 'input-first'): void {
    this.wait = null;
    this.step({ k: 'offerDropped' });
    this.deps.log.info('prompt-not-offered', { reason });
    this.tell(false);
  }

  private tell(typed: boolean): void {
    this.deps.viewers.sendToAttached({ t: 'promptOffer', typed }, PROMPT_OFFER_METHOD);
  }

  private step(event: PromptEvent): void {
    this.prompt = reducePrompt(promptRulesFor(this.deps.agent.kind), this.prompt, event);
  }
}
