#!/usr/bin/env bash
# eval_plan.txt: a deeper search in the hands where the other side stands in Blind Nil (issue 47).
#   bash run.sh tune            # the tuning grid at 47748
#   bash run.sh confirm NAME    # the candidate NAME and the base at 47749 and 47750
# Resumable: a cell whose summary.md exists is skipped.
set -euo pipefail
source "$(dirname "$0")/../cell.sh"
out=${OUT:-results/blind_defence}
rule="./docs/results/blind_defence/blind_defence.py:BlindDefence"
r="nil_play=1,nil_risk=1.05"
declare -A spec=([base]="endgame:ppo-v3:tricks=4,bag_cost=10" [always]="search-v5"
                 [v5]="$rule:tricks=9,worlds=24,ms=250,$r" [v5nil]="$rule:tricks=9,worlds=24,ms=250,$r,nil=true"
                 [k9r]="$rule:tricks=9,worlds=16,ms=60,$r" [k8r]="$rule:tricks=8,worlds=16,ms=40,$r"
                 [k7]="$rule:tricks=7,worlds=16,ms=40" [k7r]="$rule:tricks=7,worlds=16,ms=40,$r"
                 [k6]="$rule:tricks=6,worlds=16,ms=20")
house() {  # name, seed: house rule, games to 500, against heuristic-v2
    cell "$1_$2" --agents "${spec[$1]}" heuristic-v2 --rules house --games 400 --seed "$2"
}
case $1 in
    tune) for name in base k6 k7 k7r k8r k9r v5 v5nil always; do house "$name" 47748; done ;;
    confirm) for seed in 47749 47750; do house base "$seed"; house "$2" "$seed"; done ;;
esac
