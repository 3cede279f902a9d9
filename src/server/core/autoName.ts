// Automatic names in the core (issue 18): a tab nobody named follows its agent's reported name or
// its program's title, by the pure rule of src/tabAutoName.ts. Level-triggered like the rest of
// reconciliation: a rename the rate limit holds back is made on a later tick, with the newest title.
import { commit, hasPending } from './commits.js';
import { autoNameBase, uniqueAutoName } from '../../tabAutoName.js';
import type { CoreState, CoreTab, Effect } from './types.js';

export function autoName(s: CoreState, fx: Effect[], tab: CoreTab): CoreState {
  if (!s.limits.autoName || !tab.bound || !tab.reported || hasPending(s)) return s;
  const base = autoNameBase({
    source: tab.spec.nameSource,
    current: tab.name,
    agentName: tab.reported.agentName ?? null,
    title: tab.reported.title ?? '',
    lastAt: tab.autoNamedAt,
    now: s.now,
  });
  if (base === null) return s;
  // The other tabs' names only when a rename is due: this runs for every tab on every event.
  const taken: string[] = [];
  for (const t of Object.values(s.tabs)) if (t.id !== tab.id) taken.push(t.name);
  const name = uniqueAutoName(base, taken);
  return commit(s, fx, { t: 'autoName', id: tab.id, name }, { onOk: [], onFail: [], runtime: { tabId: tab.id, ok: { autoNamedAt: s.now } } });
}
