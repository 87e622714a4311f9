#!/usr/bin/env bash
# eval_plan.txt: the Blind Nil a hand leaves to a side far behind, counted in the hybrid's solved endgame (issue 47).
#   bash run.sh tune          # the tuning grid at 47727
#   bash run.sh confirm N     # catch_up=N and the base at 47728 and 47729
# Resumable: a cell whose summary.md exists is skipped.
set -euo pipefail
out=${OUT:-results/catch_up_search}
base="endgame:ppo-v3:tricks=4,bag_cost=10"
cell() {  # agent, seed, name
    [ -f "$out/$3/summary.md" ] && return 0
    rm -rf "${out:?}/$3"
    spades tournament --workers 2 --agents "$1" heuristic-v2 --rules house --games 400 --seed "$2" --out "$out/$3" \
        --no-progress --no-plot
}
case $1 in
    tune)
        cell "$base" 47727 base
        for n in 50 145 300 1000; do cell "$base,catch_up=$n" 47727 "c$n"; done
        cell "endgame:ppo-v3:tricks=4" 47727 bag0
        cell "endgame:ppo-v3:tricks=4,catch_up=145" 47727 bag0_c145 ;;
    confirm)
        for seed in 47728 47729; do
            cell "$base" "$seed" "base_$seed"
            cell "$base,catch_up=$2" "$seed" "c$2_$seed"
        done ;;
esac
