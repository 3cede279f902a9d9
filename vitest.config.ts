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
 * End-to-end files that run one at a time, after the others (which run two at once): the real
 * agents (their keys are read by timing: Codex takes an Enter within 120 ms of typed text for a
 * newline), files whose product deadlines or injected delays are sized for an unloaded machine
 * (heartbeats, start deadlines, bind and attach delays), and one that chooses the machine's next
 * pid (decoy: any other file's process start may take it first).
 */
const E2E_ONE_AT_A_TIME = [
  'test/e2e/agents/**/*.test.ts',
  'test/e2e/decoy.test.ts',
  'test/e2e/isolation.test.ts',
  'test/e2e/limits.test.ts',
  'test/e2e/liveness.test.ts',
  'test/e2e/retireRaces.test.ts',
  'test/e2e/supervision.test.ts',
  'test/e2e/supervision2.test.ts',
];

// Projects run cheapest first (sequence.groupOrder), one group at a time: a tier that fails
// early says so before the slower ones start. `fast` is pure code; `unit` starts processes;
// end-to-end tests drive real processes. In `npm test` every file runs in a process of its own,
// two at a time (forks.maxForks), except the end-to-end files of E2E_ONE_AT_A_TIME, which run
// last, one after another in one process.
export default defineConfig({
  test: {
    // `npm run test:fast` runs `fast` in worker threads instead (--pool=threads): two at a time,
    // each keeping one module graph for many files, since starting a fresh one for each of ~140
    // files cost more than the tests. Pure tests share no state but what they give back (chalk's
    // level, fake timers, the environment: each file restores its own). Pool options are the
    // run's, not a project's (vitest makes one pool per kind), so they are set here; vitest's
    // default is one worker fewer than the cores, one on these machines. `npm test` keeps a
    // process per file: in one clean-clone run of the full counts, two Ink files in a shared
    // thread timed out resolving `ink` ("Timeout calling resolveId"), a fault not understood yet.
    // Two end-to-end files at once take about a third off their time here (most of a file's wall
    // time is processes starting and waiting on each other, not CPU).
    poolOptions: { threads: { isolate: false, maxThreads: 2 }, forks: { maxForks: 2 } },
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
          exclude: ['node_modules/**', ...E2E_ONE_AT_A_TIME],
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
          pool: 'forks',
          poolOptions: { forks: { singleFork: true } },
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
