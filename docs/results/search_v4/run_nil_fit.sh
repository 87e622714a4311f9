#!/usr/bin/env bash
# eval_plan.txt's addendum 3: E (search-v3:nil_play=true,nil_fit=true) at the tuning seed 47674 against C's games
# there (run_discards.sh's C_tune), then at 47686 with C (CONFIRM=1). Resumable: a cell with a summary.md is skipped.
set -euo pipefail
out=${OUT:-results/search_v4}
c=endgame:ppo-v3:tricks=9,worlds=24,ms=250,nil_risk=1.05,nil_play=true
e=search-v3:nil_play=true,nil_fit=true
cell() {  # agent, seed, name
    [ -f "$out/$3/summary.md" ] && return 0
    rm -rf "${out:?}/$3"
    spades tournament --workers 2 --agents "$1" heuristic-v2 --rules house --single-hand --games 2000 --seed "$2" \
        --out "$out/$3"
}
seed=47674 tag=tune
if [ "${CONFIRM:-0}" = 1 ]; then seed=47686 tag=confirm; fi
cell "$c" "$seed" "C_$tag"
cell "$e" "$seed" "E_$tag"
python docs/results/nil_play/paired.py "$out/E_$tag" "$out/C_$tag" heuristic-v2
