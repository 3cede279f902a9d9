// `a1 tabs doctor [--out FILE]` (SPEC §13): a bounded diagnostic bundle, assembled in ../doctor.ts.
import fs from 'node:fs';
import path from 'node:path';
import { VERSION } from '../../version.js';
import { command } from './entry.js';
import { existingServer, setup, type Common } from './shared.js';

async function doctor(argv: Common & { out?: string }): Promise<number> {
  const { buildBundle, readRecords } = await import('../doctor.js');
  const { listCrashRecords } = await import('../../diag/crashRecord.js');
  const { paths, profile } = setup(argv);
  const server = await existingServer(paths, profile);
  let host: unknown = null;
  if (server) {
    try {
      host = await server.request('hostStatus');
    } finally {
      server.close();
    }
  }
  const { Registry } = await import('../../store/registry.js');
  const reg = Registry.openReadOnly(paths.stateDir);
  let registry = null;
  if (reg) {
    try {
      const tabs = reg.listTabs();
      const byStatus: Record<string, number> = {};
      for (const t of tabs) byStatus[t.lifecycle] = (byStatus[t.lifecycle] ?? 0) + 1;
      registry = { tabs: tabs.length, byStatus, resumeRecords: reg.listResumeRecords().length, history: reg.listHistory().length };
    } finally {
      reg.close();
    }
  }
  const bundle = buildBundle({ version: VERSION, profile, host, registry, records: readRecords(paths.logsDir), crashes: listCrashRecords(paths.crashDir) });
  const text = JSON.stringify(bundle, null, 2) + '\n';
  if (argv.out) {
    const file = path.resolve(argv.out);
    fs.writeFileSync(file, text, { mode: 0o600 });
    process.stdout.write(`Wrote ${file} (${bundle.records.length} records, ${Buffer.byteLength(text)} bytes; no terminal, prompt or recovery content).\n`);
  } else {
    process.stdout.write(text);
  }
  return 0;
}

export const tabsDoctorCommand = command<Common & { out?: string }>({
  path: ['tabs', 'doctor'],
  usage: 'a1 tabs doctor [--out FILE]',
  summary: 'a bounded diagnostic bundle: host status, counters, recent log events and crash records; never terminal content, prompts or credentials',
  options: { out: { type: 'string', describe: 'Write the bundle to FILE (owner-only) instead of stdout' } },
  run: doctor,
});
