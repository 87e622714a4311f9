#!/usr/bin/env bash
# eval_plan.txt: a candidate (CAND, C by default) against heuristic-v2 and against search-v3, four cells each, at
# SEED .. SEED + 7 (47676 for C; addendum 5: CAND=search-v3:nil_play=true,nil_fit=true TAG=E SEED=47688). The cells'
# folders are named with TAG_ before them (none for C). Resumable: a cell whose summary.md exists is skipped.
set -euo pipefail
out=${OUT:-results/search_v4}
c=${CAND:-endgame:ppo-v3:tricks=9,worlds=24,ms=250,nil_risk=1.05,nil_play=true}
s=${SEED:-47676}
tag=${TAG:+${TAG}_}
cell() {  # opponent, seed, name, tournament options
    local opp=$1 seed=$2 name=$tag$3; shift 3
    [ -f "$out/$name/summary.md" ] && return 0
    rm -rf "${out:?}/$name"
    spades tournament --workers 2 --agents "$c" "$opp" --seed "$seed" --out "$out/$name" "$@"
}
cell heuristic-v2 $s v2_house_single --rules house --single-hand --games 2000
cell search-v3 $((s + 4)) v3_house_single --rules house --single-hand --games 2000
cell heuristic-v2 $((s + 1)) v2_house_games --rules house --games 200
cell search-v3 $((s + 5)) v3_house_games --rules house --games 200
cell heuristic-v2 $((s + 2)) v2_default_single --rules default --single-hand --games 2000
cell search-v3 $((s + 6)) v3_default_single --rules default --single-hand --games 2000
cell heuristic-v2 $((s + 3)) v2_default_games --rules default --games 200
cell search-v3 $((s + 7)) v3_default_games --rules default --games 200
# addendum 2: house-rule games to 500 against heuristic-v2 again, 400 fresh games
if [ "${CONFIRM_GAMES:-0}" = 1 ]; then
    cell heuristic-v2 47685 v2_house_games_confirm --rules house --games 400
fi
# addendum 6: C's second evaluation against search-v3, fresh seeds, twice the sizes
if [ "${SECOND:-0}" = 1 ]; then
    cell search-v3 47696 v3_house_single_2 --rules house --single-hand --games 4000
    cell search-v3 47697 v3_house_games_2 --rules house --games 400
    cell search-v3 47698 v3_default_single_2 --rules default --single-hand --games 4000
    cell search-v3 47699 v3_default_games_2 --rules default --games 400
fi
