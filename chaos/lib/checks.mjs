// The chaos run's verdicts, as pure functions over what was observed: a tab's retained lines
// against what its printer printed, tabs and pids before and after, and the profile's processes
// against the tabs listed. Each returns counts for the figures and details for the evidence.

/** Details kept per finding: enough to act on, bounded so a broken run stays readable. */
const MAX_DETAILS = 8;

/**
 * Checks the text a tab retained (screen and scrollback, one line per row) against its printer,
 * which printed `chaos <tab> ready`, `chaos <tab> 1` … `chaos <tab> <last>`, `chaos <tab> end
 * <last>`, in that order. Blank rows are ignored; any other row is foreign.
 */
export function checkTabLines(text, tab, last) {
  const prefix = `chaos ${tab} `;
  const numbers = [];
  const foreign = [];
  let ready = false;
  let end = null;
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (line === '') continue;
    const rest = line.startsWith(prefix) ? line.slice(prefix.length) : null;
    if (rest === 'ready' && numbers.length === 0 && !ready) ready = true;
    else if (rest !== null && /^[1-9]\d*$/.test(rest) && end === null) numbers.push(Number(rest));
    else if (rest !== null && /^end \d+$/.test(rest) && end === null) end = Number(rest.slice(4));
    else foreign.push(line);
  }
  const seen = new Set(numbers);
  const missing = [];
  for (let n = 1; n <= last; n++) if (!seen.has(n)) missing.push(n);
  let outOfOrder = 0;
  for (let i = 1; i < numbers.length; i++) if (numbers[i] < numbers[i - 1]) outOfOrder++;
  const beyond = numbers.filter((n) => n > last).length;
  return {
    tab,
    printed: last,
    seen: seen.size,
    missing: missing.length,
    /** Missing numbers as ranges (`12-15`), the first few. */
    missingRanges: ranges(missing).slice(0, MAX_DETAILS),
    outOfOrder,
    duplicates: numbers.length - seen.size,
    /** Numbers the printer says it never printed. */
    beyond,
    foreign: foreign.length,
    foreignSample: foreign.slice(0, 3).map((l) => (l.length > 60 ? `${l.slice(0, 60)}…` : l)),
    ready,
    /** The end line carries the printer's own count; null when it is not there. */
    end,
  };
}

/** True when a tab's lines are exactly what was printed: all there, once, in order. */
export function linesIntact(check) {
  return check.missing === 0 && check.outOfOrder === 0 && check.duplicates === 0 && check.beyond === 0 && check.foreign === 0 && check.ready && check.end === check.printed;
}

/** `[3,4,5,9]` → `['3-5', '9']`. */
export function ranges(sorted) {
  const out = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    out.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return out;
}

/**
 * Compares the tabs before and after the kills. Each tab is `{ id, name, holderPid,
 * holderStart, childPid, childStart }`, the start times read from /proc (a recycled pid has
 * another). A tab gone, a tab new, or a different holder or child process is a change.
 */
export function comparePids(before, after) {
  const details = [];
  let holderChanges = 0;
  let childChanges = 0;
  let tabsGone = 0;
  const afterById = new Map(after.map((tab) => [tab.id, tab]));
  for (const was of before) {
    const now = afterById.get(was.id);
    if (now === undefined) {
      tabsGone++;
      details.push(`tab ${was.name} (${was.id}) is gone`);
      continue;
    }
    if (now.holderPid !== was.holderPid || now.holderStart !== was.holderStart) {
      holderChanges++;
      details.push(`tab ${was.name}: holder ${describe(was.holderPid, was.holderStart)} → ${describe(now.holderPid, now.holderStart)}`);
    }
    if (now.childPid !== was.childPid || now.childStart !== was.childStart) {
      childChanges++;
      details.push(`tab ${was.name}: child ${describe(was.childPid, was.childStart)} → ${describe(now.childPid, now.childStart)}`);
    }
  }
  const beforeIds = new Set(before.map((tab) => tab.id));
  const tabsNew = after.filter((tab) => !beforeIds.has(tab.id));
  for (const tab of tabsNew) details.push(`tab ${tab.name} (${tab.id}) is new`);
  return { holderChanges, childChanges, tabsGone, tabsNew: tabsNew.length, details: details.slice(0, MAX_DETAILS) };
}

function describe(pid, start) {
  return pid === null || pid === undefined ? 'none' : `${pid}@${start ?? '?'}`;
}

/**
 * Sorts the profile's live processes (`{ pid, argv, tabId, holderTab }`: the A1_TAB_ID and
 * A1_HOLDER_TAB markers, null when absent) against the listing. Expected: the listed server,
 * the attached client, and per listed tab its one holder and its one child. Anything else is
 * an orphan (a second holder or child of a tab included); an expected process not running is
 * missing.
 */
export function accountProcesses(procs, { listing, clientPid }) {
  const tabs = new Map(listing.tabs.map((tab) => [tab.id, tab]));
  const orphans = [];
  const servers = [];
  const running = new Set();
  for (const p of procs) {
    if (p.pid === clientPid) continue;
    if (p.tabId !== null) {
      const tab = tabs.get(p.tabId);
      if (tab === undefined) orphans.push(`${p.pid}: a process of tab ${p.tabId}, which is not listed`);
      else if (p.pid !== tab.childPid) orphans.push(`${p.pid}: a process of tab ${tab.name} other than its child ${tab.childPid}`);
      else running.add(p.pid);
    } else if (p.holderTab !== null) {
      const tab = tabs.get(p.holderTab);
      if (tab === undefined) orphans.push(`${p.pid}: a holder of tab ${p.holderTab}, which is not listed`);
      else if (p.pid !== tab.holderPid) orphans.push(`${p.pid}: a holder of tab ${tab.name} other than its holder ${tab.holderPid}`);
      else running.add(p.pid);
    } else if (p.argv.includes('__server')) {
      servers.push(p.pid);
      if (p.pid !== listing.server?.pid) orphans.push(`${p.pid}: a server other than the listed ${listing.server?.pid ?? 'none'}`);
    } else {
      orphans.push(`${p.pid}: an unowned process of the profile (${p.argv.slice(1, 3).join(' ')})`);
    }
  }
  const missing = [];
  for (const tab of listing.tabs) {
    if (!running.has(tab.holderPid)) missing.push(`tab ${tab.name}: its holder ${tab.holderPid} is not running`);
    if (!running.has(tab.childPid)) missing.push(`tab ${tab.name}: its child ${tab.childPid} is not running`);
  }
  return { servers: servers.length, orphans: orphans.length, missing: missing.length, details: [...orphans, ...missing].slice(0, MAX_DETAILS) };
}

/** Tabs listed beyond the ones the run made (a replacement that recreated a tab), or listed
 * twice under one id or name. */
export function duplicateTabCount(listing, made) {
  const repeats = (values) => values.length - new Set(values).size;
  const extra = listing.tabs.length - made;
  return Math.max(extra, repeats(listing.tabs.map((tab) => tab.id)), repeats(listing.tabs.map((tab) => tab.name)), 0);
}
