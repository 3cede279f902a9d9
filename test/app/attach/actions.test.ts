// Keys run the prompt's commands (issue 29, "one vocabulary per thing"): every keymap action that
// does something declares the command line it runs, and that line parses to the command the
// same words typed at the prompt run.
import { describe, expect, it } from 'vitest';
import { ACTION_COMMANDS } from '../../../src/app/attach/actions.js';
import { parseCommand } from '../../../src/app/overlays/commands.js';
import { ACTIONS } from '../../../src/keymap/actions.js';

describe('the keys and the prompt share one command table', () => {
  it('every action but the ones the input router settles runs a prompt command that parses', () => {
    const routed = ACTIONS.filter((a) => a.command === null).map((a) => a.id);
    expect(routed).toEqual(['sendPrefix', 'detachTwice']);
    for (const a of ACTIONS) {
      if (a.command === null) continue;
      const typed = parseCommand(`/${a.command}`);
      expect(typed.ok, `${a.id}: /${a.command}`).toBe(true);
      expect(ACTION_COMMANDS[a.id]).toEqual(typed.ok ? typed.command : null);
    }
  });

  it('maps the seed keys to the commands a person would type', () => {
    expect(ACTION_COMMANDS.newTab).toEqual({ name: 'new-tab', arg: null });
    expect(ACTION_COMMANDS.jump1).toEqual({ name: 'view-tab', arg: 1 });
    expect(ACTION_COMMANDS.jump10).toEqual({ name: 'view-tab', arg: 10 });
    expect(ACTION_COMMANDS.moveTabLeft).toEqual({ name: 'move-tab', arg: 'left' });
    expect(ACTION_COMMANDS.rename).toEqual({ name: 'edit-name' });
    expect(ACTION_COMMANDS.closeTab).toEqual({ name: 'close' });
    expect(ACTION_COMMANDS.commandPrompt).toEqual({ name: 'command-prompt' });
    expect(ACTION_COMMANDS.detach).toEqual({ name: 'detach' });
  });
});
