#!/usr/bin/env bash
# eval_plan.txt: search-v4 with carried bags priced (bag_cost=N) against heuristic-v2 in games to 500.
#   bash run.sh tune N           # tuning cell, seed 47702, house rule, 400 games
#   bash run.sh confirm N        # confirmation cells for N (and for 0): 47703 house 800 games, 47704 default 400
#   bash run.sh hybrid           # addendum 1: endgame:ppo-v3:tricks=3 with and without bag_cost=10, 47705-47706
#   bash run.sh hybrid4          # addendum 2: endgame:ppo-v3:tricks=4 with and without bag_cost=10, 47707-47708
#   bash run.sh tuneK K          # addendum 3: endgame:ppo-v3:tricks=K,bag_cost=10 at 47707 (house games, 800)
#   bash run.sh hybridK K        # addendum 3: its four cells at 47709-47712 (issue 47's sizes)
#   bash run.sh versus_v1        # addendum 4: search-v5 against search-v1 in games to 500, 47713-47714
#   bash run.sh two_players      # addendum 5: two players, search-v1 with and without bag_cost=10, 47715
#                                  (addendum 6: SEED=47716, folders 2p_47716_*)
# Resumable: a cell whose summary.md exists is skipped.
set -euo pipefail
out=${OUT:-results/bags}
cell() {  # agent, seed, rules, games, name[, more tournament options]
    [ -f "$out/$5/summary.md" ] && return 0
    rm -rf "${out:?}/$5"
    spades tournament --workers 2 --agents "$1" "${OPPONENT:-heuristic-v2}" --rules "$3" --games "$4" --seed "$2" \
        --out "$out/$5" "${@:6}"
}
case $1 in
    tune) cell "search-v4:bag_cost=$2" 47702 house 400 "tune_$2" ;;
    confirm)
        for n in "$2" 0; do
            cell "search-v4:bag_cost=$n" 47703 house 800 "house_$n"
            cell "search-v4:bag_cost=$n" 47704 default 400 "default_$n"
        done ;;
    hybrid)
        for n in 10 0; do
            cell "endgame:ppo-v3:tricks=3,bag_cost=$n" 47705 house 800 "hybrid_house_$n"
            cell "endgame:ppo-v3:tricks=3,bag_cost=$n" 47706 default 400 "hybrid_default_$n"
        done ;;
    hybrid4)
        for n in 10 0; do
            cell "endgame:ppo-v3:tricks=4,bag_cost=$n" 47707 house 800 "hybrid4_house_$n"
            cell "endgame:ppo-v3:tricks=4,bag_cost=$n" 47708 default 400 "hybrid4_default_$n"
        done ;;
    tuneK) cell "endgame:ppo-v3:tricks=$2,bag_cost=10" 47707 house 800 "hybrid${2}_house_10" ;;
    hybridK)
        a="endgame:ppo-v3:tricks=$2,bag_cost=10"
        cell "$a" 47709 house 4000 "K${2}_house_single" --single-hand
        cell "$a" 47710 house 400 "K${2}_house_games"
        cell "$a" 47711 default 4000 "K${2}_default_single" --single-hand
        cell "$a" 47712 default 400 "K${2}_default_games" ;;
    versus_v1)
        OPPONENT=search-v1 cell search-v5 47713 house 400 v5_v1_house_games
        OPPONENT=search-v1 cell search-v5 47714 default 400 v5_v1_default_games ;;
    two_players)
        for n in 10 0; do
            if [ "${SEED:-47715}" = 47715 ]; then name="2p_default_$n"; else name="2p_${SEED}_$n"; fi
            cell "search-v1:bag_cost=$n" "${SEED:-47715}" default 400 "$name" --num-players 2
        done ;;
esac
