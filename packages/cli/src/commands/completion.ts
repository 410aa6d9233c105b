import type { Command } from 'commander';
import { bashCompletionScript } from '../completion/bash-script.ts';
import { completionTree, type CompletionNode } from '../completion/completion-tree.ts';
import { fishCompletionScript } from '../completion/fish-script.ts';
import { zshCompletionScript } from '../completion/zsh-script.ts';
import type { CommandContext } from './command-context.ts';

/** The shells `gw completion` writes a script for, and how. */
export const COMPLETION_SHELLS = {
  bash: bashCompletionScript,
  zsh: zshCompletionScript,
  fish: fishCompletionScript,
} as const satisfies Record<string, (root: CompletionNode, version: string) => string>;

/** `gw completion bash|zsh|fish`: prints the shell's completion script, made from the program's own commands and flags. */
export function registerCompletion(program: Command, { io }: CommandContext): void {
  // commander's own factory rather than `new Argument`: a command file imports commander's types only, so commander
  // stays inside the bundle's main chunk instead of becoming a file of its own every command loads.
  const completion = program.command('completion');
  completion
    .description('print the completion script of a shell (bash, zsh or fish) for every gw command and flag; see the README for where to put it')
    .addArgument(completion.createArgument('<shell>', 'the shell the script is for').choices(Object.keys(COMPLETION_SHELLS)))
    .action((shell: keyof typeof COMPLETION_SHELLS) => {
      io.stdout.write(COMPLETION_SHELLS[shell](completionTree(program), program.version() ?? ''));
    });
}
