#!/usr/bin/env bash
# eval_plan.txt: the Blind Nil a hand leaves to a side far behind, counted in the hybrid's solved endgame (issue 47).
#   bash run.sh tune          # the tuning grid at 47727
#   bash run.sh confirm N     # catch_up=N and the base at 47728 and 47729
# Resumable: a cell whose summary.md exists is skipped.
set -euo pipefail
source "$(dirname "$0")/../cell.sh"
out=${OUT:-results/catch_up_search}
base="endgame:ppo-v3:tricks=4,bag_cost=10"
house() {  # name, agent, seed: house rule, games to 500, against heuristic-v2
    cell "$1" --agents "$2" heuristic-v2 --rules house --games 400 --seed "$3"
}
case $1 in
    tune)
        house base "$base" 47727
        for n in 50 145 300 1000; do house "c$n" "$base,catch_up=$n" 47727; done
        house bag0 "endgame:ppo-v3:tricks=4" 47727
        house bag0_c145 "endgame:ppo-v3:tricks=4,catch_up=145" 47727 ;;
    confirm)
        for seed in 47728 47729; do
            house "base_$seed" "$base" "$seed"
            house "c$2_$seed" "$base,catch_up=$2" "$seed"
        done ;;
esac
