import type { Command } from 'commander';

/** A flag as completion offers it: its spellings, whether a value follows it, and its help line. */
export interface CompletionFlag {
  readonly names: readonly string[];
  readonly takesValue: boolean;
  readonly summary: string;
}

/** A command as completion offers it, with its flags, its subcommands and the choices of its arguments. */
export interface CompletionNode {
  /** The words that reach it, the program's name first: `gw`, `gw batch`, `gw ledger migrate`. */
  readonly path: string;
  readonly name: string;
  readonly summary: string;
  readonly flags: readonly CompletionFlag[];
  readonly subcommands: readonly CompletionNode[];
  /** For each argument in order, the values it accepts, or null when any value (a file, a URL) goes. */
  readonly argumentChoices: readonly (readonly string[] | null)[];
}

/** Names the shell scripts carry unquoted: a command's or flag's name must be one word of these characters. */
const WORD = /^-{0,2}[A-Za-z0-9][A-Za-z0-9_.-]*$/;

function word(text: string): string {
  if (!WORD.test(text)) throw new Error(`gw completion: ${JSON.stringify(text)} is not a plain word a shell script can carry`);
  return text;
}

/** A help line short enough for a completion menu: the description up to its first `; ` outside brackets, at most 80 characters. */
export function shortSummary(description: string): string {
  const line = description.split('\n')[0]!;
  let depth = 0;
  let end = line.length;
  for (let i = 0; i < line.length && end === line.length; i++) {
    if (line[i] === '(') depth++;
    else if (line[i] === ')') depth--;
    else if (depth <= 0 && line.startsWith('; ', i)) end = i;
  }
  const first = line.slice(0, end).trim();
  return first.length <= 80 ? first : `${first.slice(0, 79).trimEnd()}…`;
}

/** The completion tree of `command` and everything under it, read from commander (what `--help` lists). */
export function completionTree(command: Command, parentPath = ''): CompletionNode {
  const help = command.createHelp();
  const path = parentPath === '' ? word(command.name()) : `${parentPath} ${word(command.name())}`;
  return {
    path,
    name: command.name(),
    summary: shortSummary(command.summary() || command.description()),
    flags: help.visibleOptions(command).map((option) => ({
      names: [option.short, option.long].filter((name): name is string => name !== undefined).map(word),
      takesValue: option.required,
      summary: shortSummary(option.description),
    })),
    subcommands: help.visibleCommands(command).map((sub) => (command.commands.includes(sub) ? completionTree(sub, path) : helpCommandNode(command, sub, path))),
    argumentChoices: command.registeredArguments.map((argument) => (argument.argChoices ? argument.argChoices.map(word) : null)),
  };
}

/** commander's own `help [command]` (listed, not among `commands`): its argument is one of its siblings. */
function helpCommandNode(parent: Command, helpCommand: Command, parentPath: string): CompletionNode {
  return { ...completionTree(helpCommand, parentPath), argumentChoices: [parent.commands.map((sibling) => word(sibling.name()))] };
}

/** Every node of the tree, the root first. */
export function allNodes(root: CompletionNode): CompletionNode[] {
  return [root, ...root.subcommands.flatMap(allNodes)];
}

/** The names of the flags of `node` that a value follows (`--journal <file>`), so that value is not taken for a command. */
export function valueFlagNames(node: CompletionNode): string[] {
  return node.flags.filter((flag) => flag.takesValue).flatMap((flag) => flag.names);
}
