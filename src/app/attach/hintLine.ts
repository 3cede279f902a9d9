// The hints a1 writes beside its strip (issue 28): the first-run hint (its text, the keys it names
// that were used, and where it goes beside the strip as last laid out; persistence is
// firstRunHint.ts's, placement hintPlacement.ts's) and the empty strip's line.
import type { ActionId } from '../../keymap/actions.js';
import type { Keymap } from '../../keymap/keys.js';
import type { StripLayout } from '../strip/layout.js';
import { dismissHint, firstRunHintText, HINT_ACTIONS, HINT_KEY, hintDismissed, hintKeysUsed, recordHintKeyUsed } from './firstRunHint.js';
import { placeHint, stripEnd, surfaceTopFor, type HintPlace } from './hintPlacement.js';
import { chordLabel } from '../overlays/hotkeys.js';

export class HintLine {
  /** The line while it shows; null once dismissed or all its keys were used. */
  private text: string | null = null;
  /** Its keys used so far, by this launch or an earlier one. */
  private used = new Set<ActionId>();
  /** Where it goes by the strip as last laid out; its own row makes the tab shorter. */
  private place: HintPlace | null = null;
  /** As last drawn: not beside the strip's own no-tabs line. */
  drawn: HintPlace | null = null;

  constructor(
    private readonly stateDir: string,
    private readonly keymap: Keymap,
  ) {
    if (hintDismissed(stateDir)) return;
    this.used = hintKeysUsed(stateDir);
    this.text = firstRunHintText(keymap, this.used);
  }

  /** The key that dismisses it while it shows. */
  key(): string | null {
    return this.text === null ? null : HINT_KEY;
  }

  dismiss(): void {
    this.text = null;
    dismissHint(this.stateDir);
  }

  /** A key it names was used: true when its line changed (or it went). */
  noteUsed(action: ActionId): boolean {
    if (this.text === null || !HINT_ACTIONS.has(action) || this.used.has(action)) return false;
    this.used.add(action);
    recordHintKeyUsed(this.stateDir, action);
    const text = firstRunHintText(this.keymap, this.used);
    if (text === null) this.dismiss();
    else this.text = text;
    return true;
  }

  /** Places it by `strip` at `cols`; true when that moved the surface's first row. */
  relay(cols: number, strip: StripLayout): boolean {
    const top = this.surfaceTop();
    this.place = this.text === null ? null : placeHint(cols, stripEnd(strip), this.text);
    this.drawn = strip.items.some((item) => item.kind === 'hint') ? null : this.place;
    return this.surfaceTop() !== top;
  }

  /** The tab's first row: under the hint when it has a row of its own. */
  surfaceTop(): number {
    return surfaceTopFor(this.place);
  }
}

/** After `+` with no tab left: how to open one and how to leave, as this profile binds them. */
export function emptyStripHint(keymap: Keymap): string {
  const label = (action: ActionId): string | null => {
    const key = keymap.byAction.get(action)?.[0];
    return key === undefined ? null : chordLabel(key);
  };
  const open = label('newTab');
  const twice = label('detachTwice');
  const leave = label('detach') ?? (twice && `${twice} twice`);
  return `  no tabs · ${open ? `${open} or + opens one` : '+ opens one'}${leave ? ` · ${leave} detaches` : ''}`;
}
