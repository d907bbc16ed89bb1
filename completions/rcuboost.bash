# bash completion for rcuboost -*- shell-script -*-

_rcuboost_policies()
{
        rcuboost policies 2>/dev/null | awk 'NF && $1 !~ /=/ && $1 != "Policy" { print $1 }'
}

_rcuboost()
{
        local cur prev words cword
        _init_completion || return

        local commands="run compare check sweep bench validate policies"
        if [[ $cword -eq 1 ]]; then
                COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
                return
        fi

        local cmd=${words[1]}
        case $prev in
        --policy|-p)
                COMPREPLY=($(compgen -W "$(_rcuboost_policies)" -- "$cur"))
                return ;;
        --policies)
                local prefix=${cur%,*}
                [[ $prefix == "$cur" ]] && prefix="" || prefix="$prefix,"
                COMPREPLY=($(compgen -P "$prefix" -W "$(_rcuboost_policies)" -- "${cur##*,}"))
                return ;;
        --format|-f)
                COMPREPLY=($(compgen -W "png svg pdf" -- "$cur"))
                return ;;
        --trace-format)
                COMPREPLY=($(compgen -W "json ftrace" -- "$cur"))
                return ;;
        --out|-o)
                _filedir -d
                return ;;
        --trace|-t|--emit-jobs)
                [[ $cmd == compare && $prev != --emit-jobs ]] || { _filedir; return; } ;;
        --seed|-s|--seeds|-n|--jobs|-j|--repeat|-r|--window|-w|--trace-window|--set|--vary|-v|--metric|-m)
                return ;;
        esac

        local opts
        case $cmd in
        run)      opts="--policy --out --seed --set --trace --trace-format --trace-window --quiet --verbose --help" ;;
        compare)  opts="--policies --out --seed --format --window --set --trace --trace-format --jobs --quiet --help" ;;
        check)    opts="--tap --out --help" ;;
        sweep)    opts="--vary --set --policies --seeds --seed --jobs --out --metric --emit-jobs --merge --quiet --help" ;;
        bench)    opts="--repeat --out --quick --help" ;;
        validate) opts="--set --keys --help" ;;
        policies) opts="--help" ;;
        esac
        if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        else
                _filedir '@(scn)'
        fi
} &&
complete -F _rcuboost rcuboost
