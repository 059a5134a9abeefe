
# --- cdscript's part (completions/default-command.bash), after the script that
# swift-argument-parser generated from the binary (scripts/completions joins them).
#
# The generated script knows commands only in the first place. cdscript also takes
# a script there (`cdscript FILE.lua` is `cdscript run FILE.lua`), and --store and
# --state-dir before a command's name (`cdscript --store URL list`). So the first
# place offers the commands and the *.lua files (folders too when no command
# matches); a line whose first word is a script or one of run's options is
# completed as `run`'s; store options before a command as if they followed it.

# Completes as the generated _cdscript would for the words given, the last one
# being completed; COMP_LINE and COMP_POINT are rebuilt to match.
__cdscript_complete_words() {
    local IFS=$' \t\n'
    local -a COMP_WORDS=("$@")
    local -i COMP_CWORD=$(($# - 1))
    local COMP_LINE="$*"
    local -i COMP_POINT=${#COMP_LINE}
    _cdscript "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
}

__cdscript_is_command() {  # the generated script has a function per command
    [[ $1 != *[!a-z0-9_-]* ]] && declare -F "_cdscript_$1" >/dev/null
}

# bash splits words at COMP_WORDBREAKS too (`--store=URL` is three words,
# `redis://host:6379` five): the pieces that touch on the line are joined again
# into `words`, up to the one being completed.
__cdscript_join_words() {
    local line=$COMP_LINE rest
    local -i k
    words=()
    for ((k = 0; k <= COMP_CWORD; k++)); do
        rest=${line#"${line%%[![:space:]]*}"}
        if ((k == 0)) || ((${#rest} != ${#line})); then
            words+=("${COMP_WORDS[k]}")
        else
            words[-1]+=${COMP_WORDS[k]}
        fi
        line=${rest#"${COMP_WORDS[k]}"}
    done
}

__cdscript_with_default_command() {
    local -a words
    __cdscript_join_words
    local -i COMP_CWORD=$((${#words[@]} - 1))
    local cur=${words[COMP_CWORD]}
    COMPREPLY=()

    # Store options before a command's name.
    local -i i=1
    while ((i < COMP_CWORD)); do
        case ${words[i]} in
        --store | --state-dir) ((i += 2)) ;;
        --store=* | --state-dir=*) ((i += 1)) ;;
        *) break ;;
        esac
    done
    local -a leading=("${words[@]:1:i-1}")

    if ((i == COMP_CWORD)); then
        if [[ $cur == -* ]]; then
            # The root's options and the default command's.
            __cdscript_complete_words "${words[0]}" run "${words[@]:1}"
            __cdscript_complete_words "${words[0]}" "$cur"
        else
            __cdscript_complete_words "${words[0]}" "$cur"
            if ((${#COMPREPLY[@]})) && [[ $cur != */* ]]; then
                local IFS=$'\n'
                COMPREPLY+=($(compgen -f -X '!*.lua' -- "$cur"))
            else
                COMPREPLY=()
                __cdscript_complete_words "${words[0]}" run "$cur"
            fi
        fi
    elif ((i == COMP_CWORD - 1)) && [[ ${words[i]} == help && $cur != -* ]]; then
        # `help COMMAND`: the generated script offers no names there.
        __cdscript_complete_words "${words[0]}" "$cur"
        local -a names=()
        local name
        for name in "${COMPREPLY[@]}"; do [[ $name == -* ]] || names+=("$name"); done
        COMPREPLY=("${names[@]}")
    elif ((i < COMP_CWORD)) && __cdscript_is_command "${words[i]}"; then
        __cdscript_complete_words "${words[0]}" "${words[i]}" "${leading[@]}" "${words[@]:i+1}"
    else  # the default command, or a store option's value
        __cdscript_complete_words "${words[0]}" run "${words[@]:1}"
    fi
    # Each word once (the root's and run's --help, a script's two matches).
    local -A seen=()
    local -a unique=()
    local word
    for word in "${COMPREPLY[@]}"; do
        [[ -z $word || -n ${seen[$word]+x} ]] || unique+=("$word")
        seen[$word]=1
    done
    COMPREPLY=("${unique[@]}")
    # bash replaces only the part of the word after its last break character.
    if [[ $cur == *[=:]* ]]; then
        local broken=${cur%"${cur##*[=:]}"} k
        for k in "${!COMPREPLY[@]}"; do COMPREPLY[k]=${COMPREPLY[k]#"$broken"}; done
    fi
}

complete -o filenames -F __cdscript_with_default_command cdscript
