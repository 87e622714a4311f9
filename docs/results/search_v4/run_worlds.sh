#!/usr/bin/env bash
# eval_plan.txt's addendum 4: F (E with more worlds) at the tuning seed 47674 against E's games there, then at 47687
# with E (CONFIRM=1). Resumable: a cell with a summary.md is skipped.
set -euo pipefail
out=${OUT:-results/search_v4}
e=search-v3:nil_play=true,nil_fit=true
f="$e,worlds=${W:-64},ms=${MS:-600}"
cell() {  # agent, seed, name
    [ -f "$out/$3/summary.md" ] && return 0
    rm -rf "${out:?}/$3"
    spades tournament --workers 2 --agents "$1" heuristic-v2 --rules house --single-hand --games 2000 --seed "$2" \
        --out "$out/$3"
}
seed=47674 tag=tune
if [ "${CONFIRM:-0}" = 1 ]; then seed=47687 tag=confirm; fi
cell "$e" "$seed" "E_$tag"
cell "$f" "$seed" "F_$tag"
python docs/results/nil_play/paired.py "$out/F_$tag" "$out/E_$tag" heuristic-v2
