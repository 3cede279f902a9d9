// The one table of a1's command line (SPEC §11), in the order the every-form list, `--help` and
// the README show it. A new command is a file in this folder and a line here.
import type { FormEntry, GroupEntry } from './entry.js';
import { attachCommand, attachTabCommand } from './attach.js';
import { sessionCommand } from './session.js';
import { newCommand } from './new.js';
import { tabsCommand } from './tabs.js';
import { tabsStopCommand } from './tabsStop.js';
import { tabsSleepCommand } from './tabsSleep.js';
import { hostStatusCommand } from './hostStatus.js';
import { tabsDoctorCommand } from './tabsDoctor.js';
import { hostStopCommand } from './hostStop.js';
import { configCheckCommand, configPathCommand, hostReloadCommand } from './config.js';
import { sessionsCommand } from './sessions.js';
import { eventsCommand } from './events.js';
import { statusCommand } from './status.js';
import { hooksInstallCommand, hooksUninstallCommand } from './hooks.js';
import { sendCommand } from './send.js';
import { completionCommand } from './completion.js';
import { webCommand } from './web.js';

export const COMMANDS: readonly FormEntry[] = [
  attachCommand,
  attachTabCommand,
  sessionCommand,
  newCommand,
  tabsCommand,
  tabsStopCommand,
  tabsSleepCommand,
  sendCommand,
  webCommand,
  hostStatusCommand,
  tabsDoctorCommand,
  hostStopCommand,
  hostReloadCommand,
  sessionsCommand,
  eventsCommand,
  statusCommand,
  hooksInstallCommand,
  hooksUninstallCommand,
  configPathCommand,
  configCheckCommand,
  completionCommand,
];

export const GROUPS: readonly GroupEntry[] = [
  { path: ['tabs'], summary: 'list and manage tabs (never starts a server)', missing: null },
  { path: ['tabs', 'host'], summary: 'the profile server', missing: 'Name a host command: status, stop or reload.' },
  { path: ['config'], summary: "the profile's config.json", missing: 'Name a config command: path or check.' },
  { path: ['hooks'], summary: "wire an agent's own hooks to a1 status", missing: 'Name a hooks command: install or uninstall.' },
];
