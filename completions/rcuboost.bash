# bash completion for rcuboost -*- shell-script -*-
# Plain bash: it needs neither the bash-completion package nor its helpers.

_rcuboost_policies()
{
        # a policy's line starts in column 1; its keys and notes are indented
        rcuboost policies 2>/dev/null | awk '/^[a-z]/ && $1 != "Policy" { print $1 }'
}

# The long options COMMAND --help lists: the completion follows the binary.
_rcuboost_options()
{
        rcuboost "$1" --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u
}

_rcuboost_files()       # _rcuboost_files [dirs]: scenario files (or directories) matching $cur
{
        local IFS=$'\n'
        if [[ $1 == dirs ]]; then
                COMPREPLY=($(compgen -d -- "$cur"))
        else
                COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.scn' -- "$cur"))
        fi
        compopt -o filenames 2>/dev/null
}

_rcuboost()
{
        local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
        local cmd=${COMP_WORDS[1]}
        local commands="run compare check sweep hunt import bench validate policies kernel-program"

        COMPREPLY=()
        if [[ $COMP_CWORD -eq 1 ]]; then
                COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
                return
        fi
        case $prev in
        --policy|-p|--versus)
                if [[ $cmd == run || $cmd == hunt ]]; then
                        # a name, or an out-of-tree module by its path
                        if [[ $cur == */* ]]; then
                                local IFS=$'\n'
                                COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.so' -- "$cur"))
                                compopt -o filenames 2>/dev/null
                        else
                                COMPREPLY=($(compgen -W "$(_rcuboost_policies)" -- "$cur"))
                        fi
                        return
                fi
                ;&      # compare, sweep, validate: -p is --policies
        --policies)
                local prefix=${cur%,*}
                [[ $prefix == "$cur" ]] && prefix="" || prefix="$prefix,"
                COMPREPLY=($(compgen -P "$prefix" -W "$(_rcuboost_policies)" -- "${cur##*,}"))
                return ;;
        --format|-f)
                if [[ $cmd == import ]]; then
                        COMPREPLY=($(compgen -W "trace rt-app" -- "$cur"))
                else
                        COMPREPLY=($(compgen -W "png svg pdf" -- "$cur"))
                fi
                return ;;
        --trace-format)
                COMPREPLY=($(compgen -W "json ftrace dat" -- "$cur"))
                return ;;
        --coverage)
                COMPREPLY=($(compgen -W "both policy engine none" -- "$cur"))
                return ;;
        --corpus)
                local IFS=$'\n'
                COMPREPLY=($(compgen -W $'shipped\nnone' -- "$cur") $(compgen -d -- "$cur") $(compgen -f -X '!*.scn' -- "$cur"))
                compopt -o filenames 2>/dev/null
                return ;;
        --out|-o)
                if [[ $cmd == import ]]; then
                        _rcuboost_files
                else
                        _rcuboost_files dirs
                fi
                return ;;
        --trace|-t|--emit-jobs)
                if [[ $cmd != compare || $prev == --emit-jobs ]]; then
                        local IFS=$'\n'
                        COMPREPLY=($(compgen -f -- "$cur"))
                        compopt -o filenames 2>/dev/null
                        return
                fi ;;
        --seed|-s|--seeds|-n|--jobs|-j|--repeat|-r|--cpu|--window|-w|--trace-window|--set|--vary|--metric|-m|--case|--only|--property|--budget|-b|--max-findings|--hang-timeout|--reader|--call-rcu|--fold-below|--start|--duration|-d)
                return ;;
        esac
        if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "$(_rcuboost_options "$cmd")" -- "$cur"))
        elif [[ $cmd == import ]]; then
                # a trace.dat or an rt-app JSON
                local IFS=$'\n'
                COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.@(dat|json)' -- "$cur"))
                compopt -o filenames 2>/dev/null
        elif [[ $cmd != policies && $cmd != bench && $cmd != hunt ]]; then
                _rcuboost_files
        fi
} &&
complete -F _rcuboost rcuboost
