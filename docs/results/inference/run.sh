#!/usr/bin/env bash
# eval_plan.txt: P1 and Pinf (C with infer=4 at infer_tau 1 and inf) against heuristic-v2 at the tuning seed 47674,
# each paired with C's run there; CONFIRM=1: the gate's candidate (CAND, its spec) and C at 47700; V3=1: the same two
# against search-v3 at 47701. Resumable: a cell with a summary.md is skipped.
set -euo pipefail
here=$(dirname "$0")
c=endgame:ppo-v3:tricks=9,worlds=24,ms=250,nil_risk=1.05,nil_play=true
if [ "${CONFIRM:-0}" = 1 ]; then
    exec bash "$here/../search_v4/run_pair.sh" "$c" C "${CAND:?CAND: the spec of the candidate that passed the gate}" "${TAG:-P}" 47700
fi
if [ "${V3:-0}" = 1 ]; then
    out=${OUT:-results/search_v4}
    for pair in "C:$c" "${TAG:-P}:${CAND:?CAND: the spec of the candidate that passed the gate}"; do
        name=${pair%%:*}_v3_47701 spec=${pair#*:}
        [ -f "$out/$name/summary.md" ] && continue
        rm -rf "${out:?}/$name"
        spades tournament --workers 2 --agents "$spec" search-v3 --rules house --single-hand --games 2000 \
            --seed 47701 --out "$out/$name"
    done
    exec python docs/results/nil_play/paired.py "$out/${TAG:-P}_v3_47701" "$out/C_v3_47701" search-v3
fi
bash "$here/../search_v4/run_pair.sh" "$c" C "$c,infer=4,infer_tau=1" P1 47700
bash "$here/../search_v4/run_pair.sh" "$c" C "$c,infer=4,infer_tau=inf" Pinf 47700
