import { allNodes, type CompletionNode, valueFlagNames } from './completion-tree.ts';

const quote = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;

/** `__gw_node PATH`: sets the subcommands, flags and value-taking flags of the command at PATH. */
function nodeFunction(root: CompletionNode): string {
  const cases = allNodes(root).map((node) => {
    const subs = node.subcommands.map((sub) => sub.name).join(' ');
    const flags = node.flags.flatMap((flag) => flag.names).join(' ');
    return `    ${quote(node.path)}) __gw_subs=${quote(subs)}; __gw_flags=${quote(flags)}; __gw_valued=${quote(valueFlagNames(node).join(' '))} ;;`;
  });
  return ['__gw_node() {', '  case "$1" in', ...cases, "    *) __gw_subs=''; __gw_flags=''; __gw_valued='' ;;", '  esac', '}'].join('\n');
}

/** `__gw_argument PATH INDEX`: prints the values the INDEXth argument of the command at PATH accepts, if it names them. */
function argumentFunction(root: CompletionNode): string {
  const cases = allNodes(root).flatMap((node) =>
    node.argumentChoices.flatMap((choices, index) => (choices ? [`    ${quote(`${node.path}:${index}`)}) echo ${quote(choices.join(' '))} ;;`] : [])),
  );
  return ['__gw_argument() {', '  case "$1:$2" in', ...cases, '  esac', '}'].join('\n');
}

/** The bash completion script for the program `root` describes: `complete -F _gw gw`, falling back to file names. */
export function bashCompletionScript(root: CompletionNode, version: string): string {
  const name = root.name;
  return `# bash completion for ${name} ${version}, made by \`${name} completion bash\` from the program's own commands and flags.
# Install: ${name} completion bash > ~/.local/share/bash-completion/completions/${name}
#      or: echo 'source <(${name} completion bash)' >> ~/.bashrc
${nodeFunction(root)}
${argumentFunction(root)}
_gw() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" node=${quote(name)} word i skip=0 position=0
  local __gw_subs __gw_flags __gw_valued
  __gw_node "$node"
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if ((skip)); then [[ $word == = ]] || skip=0; continue; fi
    case "$word" in
      -*=*) ;;
      -*) [[ " $__gw_valued " == *" $word "* ]] && skip=1 ;;
      *)
        if [[ " $__gw_subs " == *" $word "* ]]; then node="$node $word"; position=0; __gw_node "$node"
        else position=$((position + 1)); fi ;;
    esac
  done
  COMPREPLY=()
  ((skip)) && return 0
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$__gw_flags" -- "$cur"))
  elif [[ -n $__gw_subs ]]; then
    COMPREPLY=($(compgen -W "$__gw_subs" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(__gw_argument "$node" "$position")" -- "$cur"))
  fi
  return 0
}
complete -o default -F _gw ${name}
`;
}
