#!/usr/bin/env bash
# eval_plan.txt: search-v4 with carried bags priced (bag_cost=N) against heuristic-v2 in games to 500.
#   bash run.sh tune N           # tuning cell, seed 47702, house rule, 400 games
#   bash run.sh confirm N        # confirmation cells for N (and for 0): 47703 house 800 games, 47704 default 400
# Resumable: a cell whose summary.md exists is skipped.
set -euo pipefail
out=${OUT:-results/bags}
cell() {  # bag_cost, seed, rules, games, name
    [ -f "$out/$5/summary.md" ] && return 0
    rm -rf "${out:?}/$5"
    spades tournament --workers 2 --agents "search-v4:bag_cost=$1" heuristic-v2 --rules "$3" --games "$4" \
        --seed "$2" --out "$out/$5"
}
case $1 in
    tune) cell "$2" 47702 house 400 "tune_$2" ;;
    confirm)
        for n in "$2" 0; do
            cell "$n" 47703 house 800 "house_$n"
            cell "$n" 47704 default 400 "default_$n"
        done ;;
esac
