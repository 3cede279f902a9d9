// Automatic names in the core (issue 18): a tab nobody named follows its agent's reported name or
// its program's title, by the pure rule of src/tabAutoName.ts. Level-triggered like the rest of
// reconciliation: a rename the rate limit holds back is made on a later tick, with the newest title.
import { commit } from './commits.js';
import { nextAutoName } from '../../tabAutoName.js';
import type { CoreState, CoreTab, Effect } from './types.js';

export function autoName(s: CoreState, fx: Effect[], tab: CoreTab): CoreState {
  if (!s.limits.autoName || !tab.bound || !tab.reported || Object.keys(s.pending).length > 0) return s;
  const name = nextAutoName({
    source: tab.spec.nameSource,
    current: tab.name,
    agentName: tab.reported.agentName ?? null,
    title: tab.reported.title ?? '',
    taken: Object.values(s.tabs)
      .filter((t) => t.id !== tab.id)
      .map((t) => t.name),
    lastAt: tab.autoNamedAt,
    now: s.now,
  });
  if (name === null) return s;
  return commit(s, fx, { t: 'autoName', id: tab.id, name }, { onOk: [], onFail: [], runtime: { tabId: tab.id, ok: { autoNamedAt: s.now } } });
}
