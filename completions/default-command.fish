
# --- cdscript's part (completions/default-command.fish), after the script that
# swift-argument-parser generated from the binary (scripts/completions joins them).
#
# The generated script knows commands only in the first place. cdscript also takes
# a script there (`cdscript FILE.lua` is `cdscript run FILE.lua`), and --store and
# --state-dir before a command's name (`cdscript --store URL list`). So the first
# place offers the commands and the *.lua files (folders too when no command
# matches); a line whose first word is a script or one of run's options is
# completed as `run`'s; store options before a command as if they followed it.
# The generated functions all read the line through __cdscript_tokens, so the line
# is rewritten there.

functions -c __cdscript_tokens __cdscript_tokens_as_typed

# The commands: the generated parser has a case for each (after the root's own).
function __cdscript_commands
    set -l names (functions __cdscript_parse_tokens | string match -rg "^\s+case '([^']+)'")
    printf '%s\n' $names[2..-1]
end

function __cdscript_tokens
    if test "$argv" = -tC
        # The cursor in the token; outside the reader (`complete -C`) commandline has
        # none, and the generated call would lose an argument: the token's end then.
        set -l at (__cdscript_tokens_as_typed -tC 2>/dev/null)
        test -n "$at"; or set at (string length -- "$(commandline -ct)")
        echo $at
        return
    end
    set -l tokens (__cdscript_tokens_as_typed $argv)
    if not string match -q -- '-p*' $argv[1]
        printf '%s\n' $tokens
        return
    end
    set -l before (__cdscript_tokens_as_typed -pc)
    set -l n (count $before)
    set -l i 2
    while test $i -le $n
        switch $before[$i]
            case --store --state-dir
                set i (math $i + 2)
            case '--store=*' '--state-dir=*'
                set i (math $i + 1)
            case '*'
                break
        end
    end
    if test $i -eq (math $n + 1); and not string match -q -- '-*' (commandline -ct)
        # The first place: the store options before it are left out.
        test $i -gt 2; and set -e tokens[2..(math $i - 1)]
    else if test $i -le $n; and contains -- $before[$i] (__cdscript_commands)
        set -l rest
        test $i -lt (count $tokens); and set rest $tokens[(math $i + 1)..-1]
        set -l leading
        test $i -gt 2; and set leading $tokens[2..(math $i - 1)]
        set tokens $tokens[1] $tokens[$i] $leading $rest
    else
        # The default command, one of its options, or a store option's value.
        set tokens $tokens[1] run $tokens[2..-1]
    end
    printf '%s\n' $tokens
end

function __cdscript_in_first_place
    test (count (__cdscript_tokens -pc)) -eq 1
end

# Beside the commands: *.lua files, and the folders when no command matches.
function __cdscript_first_place_scripts
    set -l token (commandline -ct)
    if string match -q -- '-*' $token
        return
    end
    set -l names (string match -- "$token*" (__cdscript_commands))
    if test (count $names) -eq 0; or string match -q -- '*/*' $token
        for f in $token*
            test -d $f; and echo $f/
        end
    end
    for f in $token*.lua
        test -f $f; and echo $f
    end
end

complete -c cdscript -n __cdscript_in_first_place -fa '(__cdscript_first_place_scripts)'

# `help COMMAND`: the generated script offers no names there.
function __cdscript_after_help
    set -l before (__cdscript_tokens -pc)
    test (count $before) -eq 2; and test "$before[2]" = help
end

complete -c cdscript -n __cdscript_after_help -fa '(__cdscript_commands)'
