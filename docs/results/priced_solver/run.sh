#!/usr/bin/env bash
# eval_plan.txt: search-v5 / search-v6 in games to 500 with this solver (new) and the previous kernel.py (old).
#   bash run.sh new        # the three cells with the checkout's solver
#   bash run.sh old        # the same boards, run with the previous commit's spades_env/solver/kernel.py in place
# Resumable: a cell whose summary.md exists is skipped.
set -euo pipefail
source "$(dirname "$0")/../cell.sh"
out=${OUT:-results/priced_solver}
for way in "$@"; do
    cell "house4_$way" --agents search-v5 heuristic-v2 --rules house --games 400 --seed 47754
    cell "default4_$way" --agents search-v5 heuristic-v2 --games 400 --seed 47755
    cell "house2_$way" --agents search-v6 heuristic-v2 --num-players 2 --rules house --games 400 --seed 47756
done
