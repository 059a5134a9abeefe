# fish completion for cdscript (installed by scripts/install into
# PREFIX/share/fish/vendor_completions.d/cdscript.fish).
#
# Commands by name; script paths (*.lua and folders) for `run` and the default
# command; test files and folders for `test`; stored ids for cancel, append,
# pause, resume and watch (from `cdscript __complete-ids`, when the store is readable).

set -l __cdscript_commands run test list cancel clear plugins timer new append pause resume watch help

# The words before the cursor, without options and their values.
function __cdscript_positionals
    set -l words (commandline -opc)
    set -e words[1]
    set -l out
    set -l skip 0
    for w in $words
        if test $skip = 1
            set skip 0
            continue
        end
        switch $w
            case --state-dir --budget --memory-limit --plugin-path --speed --title --every --id --filter --junit
                set skip 1
            case '-*'
            case '*'
                set -a out $w
        end
    end
    set -q out[1]; and printf '%s\n' $out
end

function __cdscript_no_command
    test (count (__cdscript_positionals)) -eq 0
end

function __cdscript_command_is
    set -l p (__cdscript_positionals)
    test (count $p) -ge 1; and contains -- $p[1] $argv
end

# Positionals after the command (the command itself not counted).
function __cdscript_after_command
    set -l p (__cdscript_positionals)
    test (count $p) -eq (math $argv[1] + 1); and contains -- $p[1] $argv[2..-1]
end

# *.lua files and folders under the token being completed.
function __cdscript_lua_paths
    set -l token (commandline -ct)
    for f in $token*
        if test -d $f
            echo $f/
        else if string match -q '*.lua' -- $f
            echo $f
        end
    end
end

function __cdscript_test_paths
    set -l token (commandline -ct)
    for f in $token*
        if test -d $f
            echo $f/
        else if string match -qr '_(spec|test)\.lua$' -- $f
            echo $f
        end
    end
end

# A command's name wins over a folder of the same name (`plug` -> plugins).
function __cdscript_first_word
    set -l token (commandline -ct)
    set -l names (string match -- "$token*" run test list cancel clear plugins timer new append pause resume watch help)
    if test (count $names) -gt 0; and not string match -q '*/*' -- $token
        printf '%s\n' $names
        for f in $token*.lua
            test -f $f; and echo $f
        end
    else
        __cdscript_lua_paths
    end
end

function __cdscript_ids
    set -l words (commandline -opc)
    set -l state
    set -l i (contains -i -- --state-dir $words)
    and set state --state-dir $words[(math $i + 1)]
    $words[1] __complete-ids $state 2>/dev/null
end

complete -c cdscript -f
complete -c cdscript -n __cdscript_no_command -a '(__cdscript_first_word)'
complete -c cdscript -n '__cdscript_after_command 0 run' -a '(__cdscript_lua_paths)'
complete -c cdscript -n '__cdscript_command_is test' -a '(__cdscript_test_paths)'
complete -c cdscript -n '__cdscript_after_command 0 cancel pause resume append' -a '(__cdscript_ids)'
complete -c cdscript -n '__cdscript_command_is watch' -a '(__cdscript_ids)'
complete -c cdscript -n '__cdscript_after_command 0 help' -a "$__cdscript_commands"
complete -c cdscript -n '__cdscript_command_is run; and not __cdscript_after_command 0 run' -F
complete -c cdscript -n 'not __cdscript_no_command; and not __cdscript_command_is run test list cancel clear plugins timer new append pause resume watch help' -F

complete -c cdscript -n __cdscript_no_command -l version -d 'Print the version and the Lua version'
complete -c cdscript -l help -s h -d 'Show help'
complete -c cdscript -n '__cdscript_no_command; or __cdscript_command_is run timer' -l plain -d 'Print lines instead of drawing'
complete -c cdscript -n '__cdscript_no_command; or __cdscript_command_is run timer' -l no-color -d 'Draw without colours'
complete -c cdscript -n '__cdscript_no_command; or __cdscript_command_is run timer' -l speed -x -d 'Let time flow N times faster'
complete -c cdscript -n '__cdscript_no_command; or __cdscript_command_is run timer' -l budget -x -d 'Lua instructions per callback'
complete -c cdscript -n '__cdscript_no_command; or __cdscript_command_is run timer' -l memory-limit -x -d 'Memory the script may hold'
complete -c cdscript -n '__cdscript_no_command; or __cdscript_command_is run timer' -l sandbox -d 'Remove io, os.execute and more'
complete -c cdscript -n '__cdscript_no_command; or __cdscript_command_is run timer plugins' -l plugin-path -x -a '(__fish_complete_directories)' -d 'Also look for plugins in DIR'
complete -c cdscript -n '__cdscript_no_command; or __cdscript_command_is run timer list cancel clear append pause resume watch' -l state-dir -x -a '(__fish_complete_directories)' -d 'Where persistent countdowns are kept'
complete -c cdscript -n '__cdscript_command_is timer' -l title -x -d 'Shown above the digits'
complete -c cdscript -n '__cdscript_command_is timer' -l every -x -d 'Seconds between redraws'
complete -c cdscript -n '__cdscript_command_is timer' -l id -x -d 'Keep the timer in the store'
complete -c cdscript -n '__cdscript_command_is timer' -l eject -d 'Print the timer script'
complete -c cdscript -n '__cdscript_command_is timer' -l exec -x -a '(__fish_complete_command)' -d 'Run PROGRAM when the time is up'
complete -c cdscript -n '__cdscript_command_is test' -l filter -x -d 'Run only matching tests'
complete -c cdscript -n '__cdscript_command_is test' -l tap -d 'Write TAP'
complete -c cdscript -n '__cdscript_command_is test' -l junit -r -d 'Also write a JUnit report'
complete -c cdscript -n '__cdscript_command_is list' -l json -d 'Print JSON'
