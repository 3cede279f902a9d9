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

// Projects run cheapest first (sequence.groupOrder), one group at a time: a tier that fails
// early says so before the slower ones start, and the tiers never compete for the two cores.
// `fast` is pure code; `unit` starts processes; end-to-end tests drive real processes. In
// `npm test` each runs one file at a time in a process of its own.
export default defineConfig({
  test: {
    // `npm run test:fast` runs `fast` in worker threads instead (--pool=threads): two at a time
    // (vitest's default is one worker fewer than the cores), each keeping one module graph for many
    // files, since starting a fresh one for each of ~140 files cost more than the tests. Pure tests
    // share no state but what they give back (chalk's level, fake timers, the environment: each
    // file restores its own). Pool options are the run's, not a project's (vitest makes one pool
    // per kind), so they are set here. `npm test` keeps a process per file: in one clean-clone run
    // of the full counts, two Ink files in a shared thread timed out resolving `ink` ("Timeout
    // calling resolveId"), a fault not understood yet. Two e2e files at once, tried on a loaded
    // machine, ran a holder past its start deadline in supervision2.test.ts, whose deadlines are
    // sized for one file at a time.
    poolOptions: { threads: { isolate: false, maxThreads: 2 } },
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
          testTimeout: 120_000,
          hookTimeout: 60_000,
          pool: 'forks',
          poolOptions: { forks: { singleFork: true } },
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
