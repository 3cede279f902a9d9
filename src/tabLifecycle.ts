// A tab's lifecycle, named once for every process (issue 29): the server's core, the registry
// (src/store/schema.ts checks its column against LIFECYCLES), the holder and the wire. The names
// are the words people read (src/status/vocabulary.ts TAB_STATES), so nothing translates them.

export const LIFECYCLES = ['starting', 'running', 'exited', 'failed', 'asleep'] as const;
export type Lifecycle = (typeof LIFECYCLES)[number];

/** What a holder reports of its child: a holder never sleeps, the server ends it to put a tab to sleep. */
export type HolderLifecycle = Exclude<Lifecycle, 'asleep'>;
