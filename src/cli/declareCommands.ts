// Builds yargs from the command table: a group becomes a command with its own subcommands (and
// its own command as `$0`, when it has one), an entry's positionals, options and examples become
// yargs'. Nothing about a command is written here.
import type { Argv } from 'yargs';
import { commandString, sentence, type CommandEntry, type FormEntry, type GroupEntry } from './commands/entry.js';

type Run = (entry: CommandEntry<never>) => (argv: unknown) => Promise<void>;

const samePath = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((w, i) => w === b[i]);
const under = (prefix: readonly string[], path: readonly string[]) => path.length > prefix.length && prefix.every((w, i) => w === path[i]);

export function declareCommands(y: Argv, entries: readonly FormEntry[], groups: readonly GroupEntry[], run: Run): Argv {
  const commands = entries.filter((e): e is CommandEntry<never> => e.kind === 'command');
  const own = commands.find((c) => c.path.length === 0);
  if (own) y.command('$0', sentence(own.summary), builder(own), run(own));
  return declareLevel(y, [], commands, groups, run);
}

/** The commands one word below `prefix`, in table order. */
function declareLevel(y: Argv, prefix: readonly string[], commands: readonly CommandEntry<never>[], groups: readonly GroupEntry[], run: Run): Argv {
  const words = [...new Set([...commands, ...groups].filter((e) => under(prefix, e.path)).map((e) => e.path[prefix.length]))];
  for (const word of words) {
    const path = [...prefix, word];
    const group = groups.find((g) => samePath(g.path, path));
    const entry = commands.find((c) => samePath(c.path, path));
    if (group) {
      y.command(word, sentence(group.summary), (yy: Argv) => {
        if (entry) yy.command('$0', sentence(entry.summary), builder(entry), run(entry));
        declareLevel(yy, path, commands, groups, run);
        if (group.missing !== null) yy.demandCommand(1, group.missing);
        return yy.strict();
      });
    } else if (entry) {
      y.command(commandString(word, entry.positionals), sentence(entry.summary), builder(entry), run(entry));
    }
  }
  return y;
}

function builder(entry: CommandEntry<never>): (y: Argv) => Argv {
  return (y) => {
    for (const [name, spec] of Object.entries(entry.positionals ?? {})) y.positional(name, { type: 'string', describe: spec.describe });
    // A string option always takes a value: `a1 new --name -- CMD` must not name the tab "".
    // A flag never takes one: `a1 send 2 --literal false` types "false", as tmux's `send-keys -l false`.
    for (const [name, spec] of Object.entries(entry.options ?? {})) {
      y.option(name, { type: spec.type, describe: spec.describe, alias: spec.short, ...(spec.type === 'string' ? { requiresArg: true } : { nargs: 0 }) });
    }
    for (const [example, meaning] of entry.examples ?? []) y.example(example, meaning);
    return y;
  };
}
