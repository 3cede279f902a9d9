// Never the wrong process (SPEC §15 "Which processes a close ends", issue 15): a pid a1 remembers
// for a tab's child may since belong to an unrelated session leader. The test puts one there for
// real (root picks the next pid through ns_last_pid) and proves that neither a close nor the
// cleanup after a reboot sends it any signal. The decoy traps every signal a close sends and
// writes its name; a final SIGUSR1 from the test marks the end of what it received.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { describe, it, expect, afterEach } from 'vitest';
import { detach, e2e, listing, PROMPT_SEEN, stateDir, type E2E } from './harness.js';
import { isSameAlive, listedTab, procRef, readJsonLines, waitForStatus, type ProcRef } from './lifecycleHarness.js';
import { canChoosePids, spawnAtPid } from '../helpers/pidForge.js';
import { killAllWithEnv, startTimeOf } from '../helpers/procs.js';
import { waitFor } from '../helpers/wait.js';

const GRACE_MS = 300;
const DECOY_ENV = 'A1_TEST_DECOY';

let t: E2E;
const decoys: string[] = [];
afterEach(async () => {
  for (const id of decoys.splice(0)) await killAllWithEnv(DECOY_ENV, id);
  await t?.teardown();
});

interface Decoy {
  ref: ProcRef;
  /** The signals it received, one name per line. */
  heard: () => string;
}

/** An unrelated session (`setsid`, no a1 in its environment) led by a shell at exactly `pid`. */
async function decoyAt(pid: number, dir: string): Promise<Decoy> {
  const id = crypto.randomUUID();
  decoys.push(id);
  const log = path.join(dir, `decoy-${id}.log`);
  const ready = path.join(dir, `decoy-${id}.ready`);
  const traps = ['HUP', 'CONT', 'TERM', 'INT', 'USR1'].map((s) => `trap 'echo ${s} >> "$LOG"' ${s}`).join('; ');
  const script = `${traps}; : > "$READY"; while :; do sleep 1000 & wait $!; done`;
  await spawnAtPid(pid, '/bin/sh', ['-c', script], { env: { PATH: process.env.PATH, LOG: log, READY: ready, [DECOY_ENV]: id } });
  await waitFor(() => fs.existsSync(ready), { what: 'the decoy set its traps' });
  const ref = procRef(pid);
  expect(ref, 'the decoy runs').not.toBeNull();
  return { ref: ref!, heard: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '') };
}

/** Everything the decoy heard before the test's own SIGUSR1, which ends the record. */
async function heardBeforeMarker(d: Decoy): Promise<string> {
  expect(isSameAlive(d.ref), `the decoy was ended; it heard ${JSON.stringify(d.heard())}`).toBe(true);
  process.kill(d.ref.pid, 'SIGUSR1');
  await waitFor(() => d.heard().includes('USR1'), { what: 'the decoy heard the test\'s SIGUSR1' });
  return d.heard().replace('USR1\n', '');
}

/** Waits until no process has `pid`, zombies included, so the pid is free to hand out again. */
function pidFree(pid: number): Promise<unknown> {
  return waitFor(() => startTimeOf(pid) === null, { what: `pid ${pid} free` });
}

// Choosing a pid needs root (CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE); CI runs as root, so it runs
// there (issue 15's note says so). Elsewhere it is skipped, not faked.
describe.skipIf(!canChoosePids())('a remembered pid now leading an unrelated session', () => {
  it('closing a tab whose child exited never signals the session that got the child\'s pid', async () => {
    t = e2e({ closeGraceMs: GRACE_MS });
    const go = path.join(t.home.dir, 'go');
    // An agent tab, so the close also looks for escapees: the decoy must not count as one.
    const made = await t.run('new', '--agent', 'generic', '--name', 'done', '--', '/bin/sh', '-c', `while [ ! -e '${go}' ]; do sleep 0.05; done`);
    expect(made.code, made.stderr).toBe(0);
    const tabId = made.stdout.trim();
    const child = (await waitForStatus(t, tabId, 'running')).childPid!;
    expect(child).toBeGreaterThan(0);
    fs.writeFileSync(go, '');
    await waitForStatus(t, tabId, 'exited');
    await pidFree(child);
    const decoy = await decoyAt(child, t.home.dir);

    const stop = await t.run('tabs', 'stop', tabId);
    expect(stop.code, stop.stderr).toBe(0);
    expect((await listing(t)).tabs.map((x) => x.id)).not.toContain(tabId);
    expect(await heardBeforeMarker(decoy)).toBe('');
    expect(isSameAlive(decoy.ref)).toBe(true);
  });

  it('the cleanup after a reboot never signals the session that got a recorded child\'s pid', async () => {
    t = e2e({ closeGraceMs: GRACE_MS });
    t.env.A1_TEST_BOOT_ID = 'boot-1';
    const a1 = t.attach();
    await a1.waitForText(PROMPT_SEEN);
    const made = await t.run('new', '--agent', 'generic', '--name', 'agent', '--', 'sleep', '1000');
    expect(made.code, made.stderr).toBe(0);
    const agentTab = made.stdout.trim();
    await waitForStatus(t, agentTab, 'running');
    const l = await listing(t);
    await detach(a1);
    // The server dies; then the tabs' processes die too (none has children left in its session,
    // which would keep its pid from being handed out), as a reboot would end them, and the
    // registry still names their pids.
    process.kill(l.server!.pid, 'SIGKILL');
    const tabs = l.tabs.map((tab) => ({ holder: procRef(tab.holderPid!)!, child: procRef(tab.childPid!)! }));
    for (const { holder, child } of tabs) for (const p of [holder, child]) process.kill(p.pid, 'SIGKILL');
    for (const { holder, child } of tabs) for (const p of [holder, child]) await pidFree(p.pid);
    const decoy = await decoyAt(listedTab(l, agentTab).childPid!, t.home.dir);
    const shellDecoy = await decoyAt(l.tabs.find((x) => x.id !== agentTab)!.childPid!, t.home.dir);

    t.env.A1_TEST_BOOT_ID = 'boot-2';
    const next = t.attach();
    await next.waitForText(PROMPT_SEEN);
    // The cleanup's first signals go out before the server logs the move to history.
    const log = path.join(stateDir(t), 'logs', 'server.log');
    await waitFor(() => readJsonLines(log).some((line) => line.event === 'reboot-history'), { what: 'the reboot cleanup ran' });
    expect(await heardBeforeMarker(decoy)).toBe('');
    expect(await heardBeforeMarker(shellDecoy)).toBe('');
    expect(isSameAlive(decoy.ref) && isSameAlive(shellDecoy.ref)).toBe(true);
  });
});
