#!/usr/bin/env bash
# eval_plan.txt: the candidate against heuristic-v2 and against search-v3, four cells each. Resumable: a cell whose
# summary.md exists is skipped.
set -euo pipefail
out=${OUT:-results/search_v4}
c=endgame:ppo-v3:tricks=9,worlds=24,ms=250,nil_risk=1.05,nil_play=true
cell() {  # opponent, seed, name, tournament options
    local opp=$1 seed=$2 name=$3; shift 3
    [ -f "$out/$name/summary.md" ] && return 0
    rm -rf "${out:?}/$name"
    spades tournament --workers 2 --agents "$c" "$opp" --seed "$seed" --out "$out/$name" "$@"
}
cell heuristic-v2 47676 v2_house_single --rules house --single-hand --games 2000
cell search-v3 47680 v3_house_single --rules house --single-hand --games 2000
cell heuristic-v2 47677 v2_house_games --rules house --games 200
cell search-v3 47681 v3_house_games --rules house --games 200
cell heuristic-v2 47678 v2_default_single --rules default --single-hand --games 2000
cell search-v3 47682 v3_default_single --rules default --single-hand --games 2000
cell heuristic-v2 47679 v2_default_games --rules default --games 200
cell search-v3 47683 v3_default_games --rules default --games 200
# addendum 2: house-rule games to 500 against heuristic-v2 again, 400 fresh games
if [ "${CONFIRM_GAMES:-0}" = 1 ]; then
    cell heuristic-v2 47685 v2_house_games_confirm --rules house --games 400
fi
