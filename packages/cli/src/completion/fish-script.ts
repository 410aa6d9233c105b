import { allNodes, type CompletionNode, valueFlagNames } from './completion-tree.ts';

/** A fish single-quoted string: only \ and ' are special inside. */
const quote = (text: string): string => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

/** `__gw_subs PATH` / `__gw_valued PATH`: the subcommands / value-taking flags at PATH, one a line. */
function listFunction(fn: string, root: CompletionNode, list: (node: CompletionNode) => string[]): string {
  const cases = allNodes(root).flatMap((node) => {
    const items = list(node);
    return items.length === 0 ? [] : [`    case ${quote(node.path)}`, `      printf '%s\\n' ${items.join(' ')}`];
  });
  return [`function ${fn}`, '  switch $argv[1]', ...cases, '  end', 'end'].join('\n');
}

/** The `complete` lines of one command: its subcommands, its flags and its arguments' choices. */
function completeLines(node: CompletionNode, name: string): string[] {
  const at = `-n ${quote(`__gw_at ${quote(node.path)}`)}`;
  const subs = node.subcommands.map((sub) => `complete -c ${name} ${at} -f -a ${sub.name} -d ${quote(sub.summary)}`);
  const flags = node.flags.map((flag) => {
    const spellings = flag.names.map((spelling) => (spelling.startsWith('--') ? `-l ${spelling.slice(2)}` : `-s ${spelling.slice(1)}`)).join(' ');
    return `complete -c ${name} ${at} ${spellings}${flag.takesValue ? ' -r' : ''} -d ${quote(flag.summary)}`;
  });
  const choices = node.argumentChoices.flatMap((values) => (values ? [`complete -c ${name} ${at} -f -a ${quote(values.join(' '))}`] : []));
  return [...subs, ...flags, ...choices];
}

/** The fish completion script: a `complete` line per command, flag and argument choice. */
export function fishCompletionScript(root: CompletionNode, version: string): string {
  const name = root.name;
  return `# fish completion for ${name} ${version}, made by \`${name} completion fish\` from the program's own commands and flags.
# Install: ${name} completion fish > ~/.config/fish/completions/${name}.fish
${listFunction('__gw_subs', root, (node) => node.subcommands.map((sub) => sub.name))}
${listFunction('__gw_valued', root, valueFlagNames)}
function __gw_path --description 'the ${name} command the command line is in'
  set -l tokens (commandline -opc)
  set -e tokens[1]
  set -l node ${quote(name)}
  set -l skip 0
  for word in $tokens
    if test $skip = 1
      set skip 0
      continue
    end
    switch $word
      case '-*=*'
      case '-*'
        contains -- $word (__gw_valued $node); and set skip 1
      case '*'
        contains -- $word (__gw_subs $node); and set node "$node $word"
    end
  end
  echo $node
end
function __gw_at --description 'whether the command line is in the ${name} command $argv[1]'
  test (__gw_path) = "$argv[1]"
end
complete -c ${name} -e
${allNodes(root)
  .flatMap((node) => completeLines(node, name))
  .join('\n')}
`;
}
