#!/usr/bin/env bash
# eval_plan.txt: fewer worlds searched deeper within the hybrid's 1 ms (issue 47).
#   bash run.sh tune            # the tuning grid at 47736
#   bash run.sh confirm NAME    # the candidate NAME and the base at 47737 and 47738
# Resumable: a cell whose summary.md exists is skipped.
set -euo pipefail
source "$(dirname "$0")/../cell.sh"
out=${OUT:-results/worlds_depth}
declare -A spec=([base]=tricks=4 [k6]=tricks=6 [k7w8]=tricks=7,worlds=8 [k7w8m5]=tricks=7,worlds=8,ms=5
                 [k9w2]=tricks=9,worlds=2 [k9w2m5]=tricks=9,worlds=2,ms=5 [k9w4]=tricks=9,worlds=4
                 [k9w4m5]=tricks=9,worlds=4,ms=5 [k13w1]=tricks=13,worlds=1)
agent() { echo "endgame:ppo-v3:${spec[$1]},bag_cost=10"; }
house() {  # name, seed: house rule, games to 500, against heuristic-v2
    cell "$1_$2" --agents "$(agent "$1")" heuristic-v2 --rules house --games 400 --seed "$2"
}
case $1 in
    tune) for name in base k6 k7w8 k7w8m5 k9w2 k9w2m5 k9w4 k9w4m5 k13w1; do house "$name" 47736; done ;;
    confirm) for seed in 47737 47738; do house base "$seed"; house "$2" "$seed"; done ;;
esac
