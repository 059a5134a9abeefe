# bash completion for cdscript (installed by scripts/install into
# PREFIX/share/bash-completion/completions/cdscript).
#
# Commands by name; script paths (*.lua and folders) for `run` and the default
# command; test files and folders for `test`; stored ids for cancel, append,
# pause, resume and watch (from `cdscript __complete-ids`, when the store is readable).

_cdscript_commands="run test list cancel clear plugins timer new append pause resume watch help"

# Options that take a value (the value is not a command or a script).
_cdscript_valued="--state-dir --budget --memory-limit --plugin-path --speed --title --every --id --filter --junit"

_cdscript_lua_paths() {  # *.lua files and folders
    local cur=$1 IFS=$'\n'
    compopt -o filenames 2>/dev/null
    COMPREPLY+=($(compgen -d -- "$cur") $(compgen -f -X '!*.lua' -- "$cur"))
}

_cdscript_ids() {  # stored ids, honouring a --state-dir on the line
    local cur=$1 i state=()
    for ((i = 1; i < ${#COMP_WORDS[@]} - 1; i++)); do
        [[ ${COMP_WORDS[i]} == --state-dir ]] && state=(--state-dir "${COMP_WORDS[i + 1]}")
    done
    local ids
    ids=$("${COMP_WORDS[0]}" __complete-ids "${state[@]}" 2>/dev/null) || return
    local IFS=$'\n'
    COMPREPLY+=($(compgen -W "$ids" -- "$cur"))
}

_cdscript() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()

    case $prev in
        --state-dir|--plugin-path) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --junit) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --budget|--memory-limit|--speed|--title|--every|--id|--filter) return ;;
    esac

    # The command (or the default command's script) and how many positionals follow it.
    local i word cmd="" positionals=0
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if [[ " $_cdscript_valued " == *" $word "* ]]; then ((i++)); continue; fi
        [[ $word == -* ]] && continue
        if [[ -z $cmd ]]; then cmd=$word; else ((positionals++)); fi
    done

    local run_options="--plain --no-color --speed --state-dir --budget --memory-limit --sandbox --plugin-path --help"
    if [[ -z $cmd ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--help --version $run_options" -- "$cur"))
            return
        fi
        # A command's name wins over a folder of the same name (`plug` -> plugins);
        # scripts are offered beside it, folders only when no command matches.
        local names
        names=$(compgen -W "$_cdscript_commands" -- "$cur")
        if [[ -n $names && $cur != */* ]]; then
            COMPREPLY=($names $(compgen -f -X '!*.lua' -- "$cur"))
        else
            _cdscript_lua_paths "$cur"
        fi
        return
    fi

    case $cmd in
        run)
            if [[ $cur == -* && $positionals == 0 ]]; then COMPREPLY=($(compgen -W "$run_options" -- "$cur"))
            elif ((positionals == 0)); then _cdscript_lua_paths "$cur"
            else compopt -o default 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur"))  # the script's own arguments
            fi ;;
        test)
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--filter --tap --junit --budget --help" -- "$cur"))
            else
                compopt -o filenames 2>/dev/null
                COMPREPLY=($(compgen -d -- "$cur"))
                local f
                while IFS= read -r f; do
                    [[ $f == *_spec.lua || $f == *_test.lua ]] && COMPREPLY+=("$f")
                done < <(compgen -f -- "$cur")
            fi ;;
        cancel|pause|resume|append)
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--state-dir --help" -- "$cur"))
            elif ((positionals == 0)); then _cdscript_ids "$cur"
            fi ;;
        watch)
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--state-dir --help" -- "$cur"))
            else _cdscript_ids "$cur"
            fi ;;
        list) COMPREPLY=($(compgen -W "--json --state-dir --help" -- "$cur")) ;;
        clear) COMPREPLY=($(compgen -W "--state-dir --help" -- "$cur")) ;;
        plugins) COMPREPLY=($(compgen -W "--plugin-path --help" -- "$cur")) ;;
        new) [[ $cur == -* ]] && COMPREPLY=($(compgen -W "--help" -- "$cur")) ;;
        help) ((positionals == 0)) && COMPREPLY=($(compgen -W "$_cdscript_commands" -- "$cur")) ;;
        timer)
            local w
            for w in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
                if [[ $w == --exec ]]; then COMPREPLY=($(compgen -c -- "$cur")); return; fi
            done
            [[ $cur == -* ]] && COMPREPLY=($(compgen -W "--title --every --id --exec --eject $run_options" -- "$cur")) ;;
        *)  # the default command: $cmd is the script, the rest are its arguments
            compopt -o default 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
}

complete -F _cdscript cdscript
