#!/usr/bin/env bash
# One tuning step of eval_plan.txt's addenda: BASE and CANDIDATE (agent specs, with names for their folders) against
# heuristic-v2 on house-rule single hands, 1,000 deals, at the tuning seed 47674, or at the addendum's fresh seed
# with CONFIRM=1; then the candidate's paired difference with the base by deal. Resumable: a cell with a
# summary.md is skipped.
#   run_pair.sh BASE BASE_NAME CANDIDATE CANDIDATE_NAME CONFIRM_SEED
set -euo pipefail
out=${OUT:-results/search_v4}
cell() {  # agent, seed, name
    [ -f "$out/$3/summary.md" ] && return 0
    rm -rf "${out:?}/$3"
    spades tournament --workers 2 --agents "$1" heuristic-v2 --rules house --single-hand --games 2000 --seed "$2" \
        --out "$out/$3"
}
seed=47674 tag=tune
if [ "${CONFIRM:-0}" = 1 ]; then seed=$5 tag=confirm; fi
cell "$1" "$seed" "$2_$tag"
cell "$3" "$seed" "$4_$tag"
python docs/results/nil_play/paired.py "$out/$4_$tag" "$out/$2_$tag" heuristic-v2
