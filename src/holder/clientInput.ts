// The controller's input on its way to the child (SPEC §7): kept in order while the child starts,
// a scripted Enter after text paused until the child has taken the text (submitPacing.ts),
// admitted through the input bound, written straight to the PTY or through the model, and
// refused whole, with the typist told, when it cannot be delivered.
import { encodeInput, isBinaryInput } from '../input/encode.js';
import { isChildOnly } from '../input/kittyKeys.js';
import { interruptKeyIn, type InterruptKey } from '../lifecycle/restart.js';
import type { InputEvent } from '../input/events.js';
import type { Logger } from '../log.js';
import { InputGate, type Admission, type InputBatch, type InputPart } from './inputGate.js';
import { StartingInput } from './startingInput.js';
import { isPlainText, submitAfterText, submitDue } from './submitPacing.js';
import type { TerminalModel } from './terminalModel.js';
import type { DataClient } from './dataClients.js';
import type { ChildView } from './childSlot.js';
import type { FrameClock } from './frameClock.js';
import type { Disposable } from '../disposable.js';

/** Input that waits beyond the bound is refused once the child has taken none of its backlog for
 * this long: it is not reading (issue 15). Long enough for a reading child on a loaded machine. */
const INPUT_STALL_MS = 2_000;
/** How often waiting input checks whether the child stopped reading. */
const INPUT_STALL_CHECK_MS = 250;
/** Waiting input plus the writer's backlog never exceed this many times the bound. */
const INPUT_CAP_FACTOR = 32;
/** Keys typed while a tab started go to a child that printed nothing by then anyway. */
const STARTING_INPUT_WAIT_MS = 2_000;
/** How often a paused Enter checks whether the child has taken the text before it. */
const SUBMIT_CHECK_MS = 20;

/** One input message: `scripted` when a script or the page's compose line typed it all at once
 * (`a1 send`), not a person key by key. */
interface Typed {
  owner: DataClient;
  events: InputEvent[];
  scripted: boolean;
}

export interface InputDeps<Phases> {
  readonly log: Logger;
  readonly model: TerminalModel;
  /** The child the input is for; it hears of interrupt keys typed to it. */
  readonly child: ChildView;
  /** Admitted input: the next frame goes out at once. */
  readonly frames: Pick<FrameClock, 'expediteNext'>;
  /** What the presses tell about the agent's turn, read before they are admitted. */
  readonly agent: { readonly working: boolean; readKeys(presses: InputEvent[]): Phases };
  /** The presses were admitted (written or held): the pending prompt follows them. */
  readonly offer: { admitted(presses: InputEvent[], phases: Phases, bracketedPaste: boolean): void };
}

export class ClientInput<Phases> implements Disposable {
  private readonly gate: InputGate<DataClient>;
  private readonly startingInput: StartingInput<Typed, InputEvent>;
  private stallCheck: NodeJS.Timeout | null = null;
  /** Input behind a paused Enter (the first batch starts with it), in order, and its bytes. */
  private paused: Typed[] = [];
  private pausedBytes = 0;
  private submitCheck: NodeJS.Timeout | null = null;
  /** When the last input delivered ended in plain text; null when it ended in anything else. */
  private textAt: number | null = null;
  /** Set while a started child has keys waiting for its first output. */
  private startingInputDue: NodeJS.Timeout | null = null;

  constructor(
    private readonly boundBytes: number,
    private readonly deps: InputDeps<Phases>,
  ) {
    this.gate = new InputGate(boundBytes, INPUT_STALL_MS, boundBytes * INPUT_CAP_FACTOR);
    this.startingInput = new StartingInput(boundBytes);
  }

  /** The controller's keys; `scripted` when typed all at once by a script, not key by key. */
  offer(client: DataClient, events: InputEvent[], scripted: boolean): void {
    if (Array.isArray(events) && this.waitsForChild()) {
      // Typed while the child starts: kept in order, delivered once it is ready (SPEC §7).
      const bytes = this.encodedBytes(events);
      if (!this.startingInput.offer({ owner: client, events, scripted }, events, bytes)) this.refuse([{ owner: client, bytes }]);
      return;
    }
    if (!Array.isArray(events) || !this.deps.child.running) {
      client.conn.send({ t: 'inputRejected', reason: 'not-running' });
      return;
    }
    this.pace({ owner: client, events, scripted });
  }

  private encodedBytes(events: InputEvent[]): number {
    const modes = this.deps.model.modes.modes;
    return events.reduce((n, ev) => n + Buffer.byteLength(encodeInput(ev, modes)), 0);
  }

  /** Input waits behind a paused Enter; a scripted Enter after text pauses until the child has
   * taken the text, and what follows it waits behind it. */
  private pace(typed: Typed): void {
    if (this.paused.length > 0) {
      const bytes = this.encodedBytes(typed.events);
      if (this.pausedBytes + bytes > this.capBytes) return this.refuse([{ owner: typed.owner, bytes }]);
      this.paused.push(typed);
      this.pausedBytes += bytes;
      return;
    }
    const at = typed.scripted ? submitAfterText(typed.events, this.textAt !== null) : -1;
    if (at < 0) return this.deliver(typed.owner, typed.events);
    if (at > 0) this.deliver(typed.owner, typed.events.slice(0, at));
    const rest = { ...typed, events: typed.events.slice(at) };
    if (this.submitIsDue()) return this.submit(rest);
    this.paused.push(rest);
    this.pausedBytes += this.encodedBytes(rest.events);
    this.submitCheck = setInterval(() => this.checkPaused(), SUBMIT_CHECK_MS);
  }

  private submitIsDue(): boolean {
    const now = performance.now();
    return submitDue({ now, textAt: this.textAt ?? -Infinity, outputAt: this.deps.child.outputAt, pendingBytes: this.deps.child.writer?.pendingBytes ?? 0 });
  }

  /** The Enter that starts `typed` goes now, on its own; what follows it is paced again. */
  private submit(typed: Typed): void {
    this.deliver(typed.owner, typed.events.slice(0, 1));
    if (typed.events.length > 1) this.pace({ ...typed, events: typed.events.slice(1) });
  }

  private checkPaused(): void {
    if (!this.submitIsDue()) return;
    this.stopSubmitCheck();
    const waiting = this.paused;
    this.paused = [];
    this.pausedBytes = 0;
    const [first, ...rest] = waiting;
    this.submit(first);
    for (const typed of rest) this.pace(typed);
  }

  private stopSubmitCheck(): void {
    if (this.submitCheck) clearInterval(this.submitCheck);
    this.submitCheck = null;
  }

  private get capBytes(): number {
    return this.boundBytes * INPUT_CAP_FACTOR;
  }

  /** Keys wait while the child starts, and after, until the new child is ready for them. */
  private waitsForChild(): boolean {
    return !this.deps.child.terminating && (this.deps.child.lifecycle === 'starting' || this.startingInputDue !== null);
  }

  /** A child just started with keys waiting for it: they go at its first output (a shell's prompt,
   * an agent's first frame: it has set its terminal up by then; earlier, a line discipline still in
   * canonical mode would echo them and cut a long line), or after a bounded wait. */
  awaitChildReady(): void {
    if (this.startingInput.bytes === 0) return;
    this.startingInputDue = setTimeout(() => this.deliverStarting(), STARTING_INPUT_WAIT_MS);
  }

  /** The child printed: keys that waited for it go now. */
  childPrinted(): void {
    if (this.startingInputDue) this.deliverStarting();
  }

  /** The keys typed while the child started go to it now, in order, as if typed now. */
  private deliverStarting(): void {
    this.cancelStartingWait();
    for (const batch of this.startingInput.take()) this.pace(batch.owner);
  }

  /** Keys still waiting for a child that died wait on for the next one, or are refused. */
  cancelStartingWait(): void {
    if (this.startingInputDue) clearTimeout(this.startingInputDue);
    this.startingInputDue = null;
  }

  /** The child will not run: what waited for it is refused, and each typist is told. */
  refuseStarting(): void {
    this.cancelStartingWait();
    const batches = this.startingInput.take();
    if (batches.length === 0) return;
    this.deps.log.warn('input-rejected', { bytes: batches.reduce((n, b) => n + b.bytes, 0) });
    for (const owner of new Set(batches.map((b) => b.owner.owner))) owner.conn.send({ t: 'inputRejected', reason: 'not-started' });
  }

  /** At the child's exit: input held for it is not replayed into the next child (SPEC §7).
   * Returns how many bytes were dropped. */
  dropHeld(): number {
    const dropped = this.gate.dropAll().reduce((n, b) => n + b.bytes, 0) + this.pausedBytes;
    this.stopStallCheck();
    this.stopSubmitCheck();
    this.paused = [];
    this.pausedBytes = 0;
    this.textAt = null;
    return dropped;
  }

  private deliver(client: DataClient, events: InputEvent[]): void {
    const modes = this.deps.model.modes.modes;
    // A key's release (and a modifier key alone) reaches a child that asked for it, but types
    // nothing: the agent's status and the pending prompt follow presses only.
    const presses = events.filter((ev) => !isChildOnly(ev));
    const parts: InputPart[] = [];
    const interrupts = new Set<InterruptKey>();
    let text = '';
    let bytes = 0;
    for (const ev of events) {
      const encoded = encodeInput(ev, modes);
      // A paste's bytes are text, not keys (a program reading them raw acts on none).
      const interrupt = ev.k === 'paste' ? null : interruptKeyIn(encoded);
      if (interrupt) interrupts.add(interrupt);
      if (isBinaryInput(ev, modes)) {
        // Default-encoded mouse reports are single bytes above 0x7f, not UTF-8.
        if (text) parts.push({ binary: false, data: text });
        text = '';
        parts.push({ binary: true, data: encoded });
        bytes += encoded.length;
      } else {
        text += encoded;
        bytes += Buffer.byteLength(encoded);
      }
    }
    if (text) parts.push({ binary: false, data: text });
    // Told before readKeys, so the agent's turn is still the one the key hit.
    for (const key of interrupts) this.deps.child.interruptTyped(key, this.deps.agent.working, Date.now());
    const phases = this.deps.agent.readKeys(presses);
    const verdict = this.admit({ parts, bytes, paste: events.some((ev) => ev.k === 'paste'), owner: client });
    if (verdict === 'refused') return;
    this.deps.offer.admitted(presses, phases, modes.bracketedPaste);
    if (presses.length > 0) this.textAt = isPlainText(presses[presses.length - 1]) ? performance.now() : null;
  }

  private writerView() {
    const writer = this.deps.child.writer;
    return { pending: writer?.pendingBytes ?? 0, stalledMs: writer?.stalledMs() ?? 0 };
  }

  private admit(batch: InputBatch<DataClient>): Admission {
    const verdict = this.gate.offer(batch, this.writerView());
    if (verdict === 'write') this.writeBatch(batch);
    else if (verdict === 'refused') this.refuse([batch]);
    else if (!this.stallCheck) this.stallCheck = setInterval(() => this.checkHeld(), INPUT_STALL_CHECK_MS);
    return verdict;
  }

  private writeBatch(batch: InputBatch<DataClient>): void {
    for (const part of batch.parts) {
      if (part.binary) this.deps.child.writer?.write(Buffer.from(part.data, 'latin1'));
      else this.deps.model.typed(part.data);
    }
    this.deps.frames.expediteNext();
  }

  /** The PTY took bytes: input waiting in order goes as far as it now fits. */
  releaseHeld(): void {
    for (const batch of this.gate.release(this.writerView())) this.writeBatch(batch);
    if (this.gate.heldBytes === 0) this.stopStallCheck();
  }

  private checkHeld(): void {
    this.releaseHeld();
    const refused = this.gate.refuseIfStalled(this.writerView());
    if (refused.length > 0) this.refuse(refused);
    if (this.gate.heldBytes === 0) this.stopStallCheck();
  }

  private stopStallCheck(): void {
    if (this.stallCheck) clearInterval(this.stallCheck);
    this.stallCheck = null;
  }

  /** The holder shuts down: no timer of its input runs on. */
  dispose(): void {
    this.stopStallCheck();
    this.stopSubmitCheck();
    this.cancelStartingWait();
  }

  /** Refused whole, and said so to each client whose input it was. */
  private refuse(batches: Array<Pick<InputBatch<DataClient>, 'owner' | 'bytes'>>): void {
    this.deps.log.warn('input-rejected', { bytes: batches.reduce((n, b) => n + b.bytes, 0) });
    for (const owner of new Set(batches.map((b) => b.owner))) owner.conn.send({ t: 'inputRejected', reason: 'queue-full' });
  }
}
