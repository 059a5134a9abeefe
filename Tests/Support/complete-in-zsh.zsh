# zsh -f complete-in-zsh.zsh FPATH_DIR LINE
# Prints, one a line, the matches zsh's completion system adds when TAB is pressed
# at the end of LINE, in an interactive zsh on a pseudo-terminal (zsh/zpty) whose
# fpath starts with FPATH_DIR. compadd is wrapped to print what it adds; the rest
# (compinit, _arguments, _files, _describe) is zsh's own. For CompletionTests.
zmodload zsh/zpty || exit 2
zpty z zsh -f -i
zpty -w z "PROMPT= ; fpath=(${(q)1} \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z 'bindkey "^I" complete-word; zstyle ":completion:*" insert-tab false'
# A NUL line before and after the matches; the shell exits when completion ends.
zpty -w z 'null-line() { echo -E - $'"'"'\0'"'"' }; compprefuncs=(null-line); comppostfuncs=(null-line exit)'
zpty -w z 'compadd() {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
  local -a __hits; builtin compadd -A __hits "$@"; builtin compadd "$@"
  local h; for h in $__hits; do echo -E - "$h"; done
}'
zpty -w z "$2"$'\t'
integer seen=0
local line
while zpty -r z line; do
    if [[ $line == *$'\0'* ]]; then (( seen++ )) && break || continue; fi
    line=${${line%$'\n'}%$'\r'}
    (( seen )) && [[ -n $line ]] && print -r -- $line
done
zpty -d z
