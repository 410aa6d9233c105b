import { allNodes, type CompletionNode, valueFlagNames } from './completion-tree.ts';

const quote = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;
/** A `name:description` entry of `_describe`: a colon in the name would end it early, so names have none (see WORD). */
const entry = (name: string, summary: string): string => quote(`${name}:${summary}`);

/** `__gw_node PATH`: sets the subcommands and flags (as `name:description`) and the value-taking flags at PATH. */
function nodeFunction(root: CompletionNode): string {
  const cases = allNodes(root).map((node) => {
    const subs = node.subcommands.map((sub) => entry(sub.name, sub.summary)).join(' ');
    const flags = node.flags.flatMap((flag) => flag.names.map((name) => entry(name, flag.summary))).join(' ');
    const valued = valueFlagNames(node).map(quote).join(' ');
    return `    (${quote(node.path)}) subs=(${subs}); flags=(${flags}); valued=(${valued}) ;;`;
  });
  return ['__gw_node() {', '  subs=(); flags=(); valued=()', '  case "$1" in', ...cases, '  esac', '}'].join('\n');
}

/** `__gw_argument PATH INDEX`: sets `choices` to the values the INDEXth argument at PATH accepts, if it names them. */
function argumentFunction(root: CompletionNode): string {
  const cases = allNodes(root).flatMap((node) =>
    node.argumentChoices.flatMap((values, index) => (values ? [`    (${quote(`${node.path}:${index}`)}) choices=(${values.map(quote).join(' ')}) ;;`] : [])),
  );
  return ['__gw_argument() {', '  choices=()', '  case "$1:$2" in', ...cases, '  esac', '}'].join('\n');
}

/** The zsh completion script (a `#compdef` function; also works when sourced after compinit). */
export function zshCompletionScript(root: CompletionNode, version: string): string {
  const name = root.name;
  return `#compdef ${name}
# zsh completion for ${name} ${version}, made by \`${name} completion zsh\` from the program's own commands and flags.
# Install: ${name} completion zsh > "\${fpath[1]}/_${name}"   (a directory on $fpath; then restart zsh)
#      or: echo 'source <(${name} completion zsh)' >> ~/.zshrc   (after compinit)
${nodeFunction(root)}
${argumentFunction(root)}
_gw() {
  local node=${quote(name)} word i skip=0 position=0
  local -a subs flags valued choices names
  __gw_node "$node"
  for (( i = 2; i < CURRENT; i++ )); do
    word=\${words[i]}
    if (( skip )); then skip=0; continue; fi
    case $word in
      (-*=*) ;;
      (-*) (( \${valued[(Ie)$word]} )) && skip=1 ;;
      (*)
        names=(\${subs%%:*})
        if (( \${names[(Ie)$word]} )); then node="$node $word"; position=0; __gw_node "$node"
        else (( position++ )); fi ;;
    esac
  done
  if (( skip )); then _files; return; fi
  if [[ $PREFIX == -* ]]; then _describe -t options 'option' flags; return; fi
  if (( $#subs )); then _describe -t commands 'command' subs; return; fi
  __gw_argument "$node" "$position"
  if (( $#choices )); then compadd -a choices; else _files; fi
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then _gw "$@"; else compdef _gw ${name}; fi
`;
}
