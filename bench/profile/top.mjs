// Where the CPU went, per role, over every .cpuprofile a `--profile DIR` run wrote:
//   node bench/profile/top.mjs DIR [N] [ROLE]
// For each role (server, holder, client, ...): busy time, then the top N functions by self time
// and by inclusive time (a function counted once per sample however deep it recurs).
import fs from 'node:fs';
import path from 'node:path';

const [dir, topN = '15', onlyRole] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node bench/profile/top.mjs DIR [N] [ROLE]');
  process.exit(2);
}

const NOT_WORK = /^\((idle|program|root)\)/;
const frameKey = (cf) => `${cf.functionName || '(anonymous)'} ${cf.url ? path.basename(cf.url) : ''}:${cf.lineNumber + 1}`;

function addProfile(acc, profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const leaf = byId.get(profile.samples[i]);
    const leafKey = frameKey(leaf.callFrame);
    acc.total += ms;
    if (NOT_WORK.test(leafKey)) continue;
    acc.busy += ms;
    acc.self.set(leafKey, (acc.self.get(leafKey) ?? 0) + ms);
    const seen = new Set();
    for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) {
      const key = frameKey(byId.get(id).callFrame);
      if (seen.has(key) || NOT_WORK.test(key)) continue;
      seen.add(key);
      acc.inclusive.set(key, (acc.inclusive.get(key) ?? 0) + ms);
    }
  }
}

const roles = new Map();
for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const role = file.replace(/-\d+-\d+\.cpuprofile$/, '');
  if (onlyRole && role !== onlyRole) continue;
  if (!roles.has(role)) roles.set(role, { files: 0, total: 0, busy: 0, self: new Map(), inclusive: new Map() });
  const acc = roles.get(role);
  acc.files += 1;
  let profile;
  try {
    profile = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
  } catch {
    continue; // cut short: its process was killed while writing it
  }
  addProfile(acc, profile);
}

const rows = (map) => [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(topN));
for (const [role, acc] of [...roles.entries()].sort((a, b) => b[1].busy - a[1].busy)) {
  console.log(`\n## ${role}: ${acc.files} process(es), busy ${acc.busy.toFixed(0)} ms of ${acc.total.toFixed(0)} ms sampled`);
  console.log('self:');
  for (const [key, ms] of rows(acc.self)) console.log(`  ${ms.toFixed(1).padStart(8)} ms ${(100 * ms / acc.busy).toFixed(1).padStart(5)}%  ${key}`);
  console.log('inclusive:');
  for (const [key, ms] of rows(acc.inclusive)) console.log(`  ${ms.toFixed(1).padStart(8)} ms ${(100 * ms / acc.busy).toFixed(1).padStart(5)}%  ${key}`);
}
