// What a user's restart, sleep and wake do to a tab (SPEC §9), decided on plain facts; the server
// shell carries the decision out (holder commands, registry writes, spawns).

export interface RestartFacts {
  /** A holder is bound to the tab. */
  linked: boolean;
  /** A holder start is in flight. */
  starting: boolean;
  /** The child's lifecycle, as the holder last reported it (or the row's). */
  lifecycle: string;
  /** The tab sleeps: waking it, not a restart, starts it. */
  asleep: boolean;
  /** `/restart`: a running child is restarted too. */
  force: boolean;
}

/** `r`/`f` on an exited or failed tab restart its child in the same holder; a tab with no holder
 * (its holder failed past the budget) gets a new one; `/restart` also restarts a running child. */
export function restartAction(f: RestartFacts): 'restartRunningChild' | 'restartChild' | 'startHolder' | 'none' {
  if (f.linked) {
    if (f.force && f.lifecycle === 'running') return 'restartRunningChild';
    if (f.lifecycle === 'exited' || f.lifecycle === 'failed') return 'restartChild';
    return 'none';
  }
  return !f.starting && !f.asleep ? 'startHolder' : 'none';
}

export interface SleepFacts {
  /** The tab exists here and is not closing. */
  present: boolean;
  asleep: boolean;
  /** An agent tab with a session id and a resume command. */
  resumable: boolean;
}

export function sleepAction(f: SleepFacts): 'noTab' | 'alreadyAsleep' | 'notResumable' | 'sleep' {
  if (!f.present) return 'noTab';
  if (f.asleep) return 'alreadyAsleep';
  return f.resumable ? 'sleep' : 'notResumable';
}

/** Viewing or typing into a sleeping tab wakes it, once: not while it already starts or runs. */
export function wakes(f: { asleep: boolean; starting: boolean; linked: boolean }): boolean {
  return f.asleep && !f.starting && !f.linked;
}
