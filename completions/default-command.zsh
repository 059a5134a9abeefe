
# --- cdscript's part (completions/default-command.zsh), after the script that
# swift-argument-parser generated from the binary (scripts/completions joins them,
# renaming the generated root function to __cdscript_as_generated).
#
# The generated script knows commands only in the first place. cdscript also takes
# a script there (`cdscript FILE.lua` is `cdscript run FILE.lua`), and --store and
# --state-dir before a command's name (`cdscript --store URL list`). So the first
# place offers the commands and the *.lua files (folders too when no command
# matches); a line whose first word is a script or one of run's options is
# completed as `run`'s; store options before a command as if they followed it.

# What the binary offers that ends in a slash is a folder (test paths, --exec
# paths): added without the space after it, so that Tab goes on into the folder.
functions -c __cdscript_complete __cdscript_complete_as_generated
__cdscript_complete() {
    local -a folders=("${(M)@:#*/}") others=("${@:#*/}")
    (( ${#folders} )) && compadd -S '' -- "${folders[@]}"
    (( ${#others} )) && __cdscript_complete_as_generated "${others[@]}"
}

_cdscript() {
    # The generated specs know `--name VALUE` only: `--name=VALUE` is split in two.
    local -a split=()
    local -i i
    for (( i = 2; i < CURRENT; i++ )); do
        if [[ ${words[i]} == --?*=* ]]; then
            split+=("${words[i]%%=*}" "${words[i]#*=}")
        else
            split+=("${words[i]}")
        fi
    done
    words=("${words[1]}" "${split[@]}" "${(@)words[CURRENT,-1]}")
    CURRENT=$(( ${#split} + 2 ))

    # Store options before a command's name.
    i=2
    while (( i < CURRENT )); do
        case ${words[i]} in
        --store|--state-dir) (( i += 2 )) ;;
        *) break ;;
        esac
    done
    if (( i == CURRENT )); then
        words=("${words[1]}" "${(@)words[CURRENT,-1]}")
        CURRENT=2
        # The generated script has a function per command.
        local -a names=(${${(k)functions[(I)_cdscript_${(b)PREFIX}*]}#_cdscript_})
        if [[ $PREFIX == -* ]]; then
            # The root's options and the default command's.
            words=("${words[1]}" run "${(@)words[2,-1]}")
            CURRENT=3
            __cdscript_as_generated
        elif (( ${#names} )) && [[ $PREFIX != */* ]]; then
            __cdscript_as_generated
            local -a luas=(${PREFIX}*.lua(N.))
            (( ${#luas} )) && compadd -f -a luas
        else
            _files -g '*.lua'
        fi
    elif (( i == CURRENT - 1 )) && [[ ${words[i]} == help && $PREFIX != -* ]]; then
        # `help COMMAND`: the generated script offers no names there.
        words=("${words[1]}" "${words[CURRENT]}")
        CURRENT=2
        __cdscript_as_generated
    elif (( i < CURRENT )) && (( $+functions[_cdscript_${words[i]}] )); then
        words=("${words[1]}" "${words[i]}" "${(@)words[2,i-1]}" "${(@)words[i+1,-1]}")
        __cdscript_as_generated
    else
        # The default command, or a store option's value.
        words=("${words[1]}" run "${(@)words[2,-1]}")
        (( CURRENT++ ))
        __cdscript_as_generated
    fi
}

if [[ "${funcstack[1]}" = _cdscript ]]; then
    _cdscript "${@}"
else
    compdef _cdscript cdscript
fi
