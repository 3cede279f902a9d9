import { defineConfig } from 'vitest/config';

/**
 * Test files outside test/e2e that start a process (a child, a PTY, a bundler, a shell) or change
 * what a worker thread may not (the umask): they run in `unit`, in processes of their own. Every
 * other file there runs in `fast`, in worker threads, whose setup file refuses to start a process
 * (test/helpers/noChildProcess.ts), so a file that starts one and is not listed here fails.
 */
const OWN_PROCESS = [
  'test/atomicWrite.test.ts',
  'test/cli/codeCache.test.ts',
  'test/cli/completion.test.ts',
  'test/cli/lazyHelpLayout.test.ts',
  'test/cli/nesting.test.ts',
  'test/cli/statusWithoutCli.test.ts',
  'test/diag/watchdog.test.ts',
  'test/fixtures/fake-agent.test.ts',
  'test/helpers/helpers.test.ts',
  'test/holder/bridge.test.ts',
  'test/holder/holder.test.ts',
  'test/holder/serverWatch.test.ts',
  'test/hooks/a1Hook.test.ts',
  'test/lifecycle/processes.test.ts',
  'test/native/native.test.ts',
  'test/proc.test.ts',
  'test/profileDirsUmask.test.ts',
  'test/security.test.ts',
  'test/server/holderProcesses.test.ts',
  'test/store/asleepCrash.test.ts',
  'test/store/lease.test.ts',
  'test/store/registry.test.ts',
];

/**
 * End-to-end files that run one at a time, at full priority, beside the others (which yield to
 * them: test/helpers/yieldToPriorityFiles.ts): files whose product deadlines or injected delays
 * are sized for an unloaded machine (heartbeats, start deadlines, bind and attach delays). They
 * mostly wait, so the others lose little to them.
 */
const E2E_ONE_AT_A_TIME = [
  'test/e2e/isolation.test.ts',
  'test/e2e/limits.test.ts',
  'test/e2e/liveness.test.ts',
  'test/e2e/retireRaces.test.ts',
  'test/e2e/supervision.test.ts',
  'test/e2e/supervision2.test.ts',
];

/**
 * End-to-end files that run last, one at a time, with nothing beside them: the real agents (their
 * keys are read by timing: Codex takes an Enter within 120 ms of typed text for a newline; a
 * loaded machine starts an agent in tens of seconds; and an agent starting takes both cores, which
 * left files beside it too little of the machine for their own windows), and decoy, which chooses
 * the machine's next pid (any other process start may take it first).
 */
const E2E_ALONE = ['test/e2e/agents/**/*.test.ts', 'test/e2e/decoy.test.ts'];

// Projects run in groups (sequence.groupOrder), cheapest first, one group after another: a tier
// that fails early says so before the slower ones start. `fast` is pure code; `unit` starts
// processes; end-to-end files drive real processes. Within a group, each kind of pool runs at the
// same time as the others, and pool options are the run's, not a project's (vitest makes one pool
// per kind), so the kinds are chosen to give each project the workers it needs:
// - `fast` and `unit`: a process per file (`forks`), two at a time. `npm run test:fast` runs `fast`
//   in two worker threads instead (--pool=threads), each keeping one module graph for many files,
//   since starting a fresh one for each of ~140 files cost more than the tests. Pure tests share
//   no state but what they give back (chalk's level, fake timers, the environment: each file
//   restores its own). `npm test` keeps a process per file: twice, in clean-clone runs of the full
//   counts, a shared thread's call to vitest timed out ("Timeout calling resolveId" / "fetch"),
//   a fault not understood yet.
// - `e2e`: a process per file (`forks`), two at a time, at a lower scheduling priority (nice 10,
//   which every process a file starts inherits), beside `e2e-serial`: one process (`vmForks`, each
//   file in a context of its own), one file at a time, at full priority. The machine stays busy
//   (`e2e` fills what a serial file leaves idle) while the serial files see it nearly as an idle
//   machine would show it.
// - `e2e-alone`: last, one file at a time, with nothing beside it.
export default defineConfig({
  test: {
    poolOptions: { threads: { isolate: false, maxThreads: 2 }, forks: { maxForks: 2 }, vmForks: { singleFork: true } },
    projects: [
      {
        test: {
          name: 'fast',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: ['test/e2e/**', 'node_modules/**', ...OWN_PROCESS],
          setupFiles: ['test/helpers/noChildProcess.ts', 'test/helpers/propertyDefaults.ts'],
          testTimeout: 30_000,
          pool: 'forks',
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'unit',
          include: OWN_PROCESS,
          setupFiles: ['test/helpers/propertyDefaults.ts'],
          testTimeout: 30_000,
          pool: 'forks',
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          exclude: ['node_modules/**', ...E2E_ONE_AT_A_TIME, ...E2E_ALONE],
          setupFiles: ['test/helpers/yieldToPriorityFiles.ts'],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          pool: 'forks',
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: 'e2e-serial',
          include: E2E_ONE_AT_A_TIME,
          testTimeout: 120_000,
          hookTimeout: 60_000,
          pool: 'vmForks',
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: 'e2e-alone',
          include: E2E_ALONE,
          testTimeout: 120_000,
          hookTimeout: 60_000,
          pool: 'forks',
          poolOptions: { forks: { singleFork: true } },
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
