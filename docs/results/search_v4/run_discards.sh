#!/usr/bin/env bash
# eval_plan.txt's addendum 1: C and D (C with nil_discards=true) at the tuning seed 47674, then at 47684 if D's
# paired difference there is above 0 (CONFIRM=1). Resumable: a cell with a summary.md is skipped.
set -euo pipefail
out=${OUT:-results/search_v4}
c=endgame:ppo-v3:tricks=9,worlds=24,ms=250,nil_risk=1.05,nil_play=true
cell() {  # agent, seed, name
    [ -f "$out/$3/summary.md" ] && return 0
    rm -rf "${out:?}/$3"
    spades tournament --workers 2 --agents "$1" heuristic-v2 --rules house --single-hand --games 2000 --seed "$2" \
        --out "$out/$3"
}
seed=47674 tag=tune
[ "${CONFIRM:-0}" = 1 ] && seed=47684 tag=confirm
cell "$c" "$seed" "C_$tag"
cell "$c,nil_discards=true" "$seed" "D_$tag"
python docs/results/nil_play/paired.py "$out/D_$tag" "$out/C_$tag" heuristic-v2
