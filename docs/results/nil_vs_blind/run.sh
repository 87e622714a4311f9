#!/usr/bin/env bash
# eval_plan.txt: the hybrid's bids after an opposing Blind Nil leaned to or away from Nil (issue 47).
#   bash run.sh tune          # margins -1 0 0.5 1 2 4 inf at 47744
#   bash run.sh confirm M     # margin M and the base at 47745, 47746 (heuristic-v2) and 47747 (ppo-v3)
# Resumable: a cell whose summary.md exists is skipped.
set -euo pipefail
source "$(dirname "$0")/../cell.sh"
out=${OUT:-results/nil_vs_blind}
rule="./docs/results/nil_vs_blind/nil_rule.py:NilRule"
house() {  # name, margin, seed, opponent: house rule, games to 500
    cell "$1" --agents "$rule:margin=$2" "$4" --rules house --games 400 --seed "$3"
}
case $1 in
    tune) for m in 0 -1 0.5 1 2 4 inf; do house "m${m}_47744" "$m" 47744 heuristic-v2; done ;;
    confirm)
        for seed in 47745 47746; do
            house "m0_$seed" 0 "$seed" heuristic-v2
            house "m$2_$seed" "$2" "$seed" heuristic-v2
        done
        house m0_ppo_47747 0 47747 ppo-v3
        house "m$2_ppo_47747" "$2" 47747 ppo-v3 ;;
esac
