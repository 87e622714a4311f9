#!/usr/bin/env bash
# eval_plan.txt: the hybrid's Nil defence and bag price in house-rule games to 500 (issue 47).
#   bash run.sh tune NAME OPTIONS   # tuning cell at 47717: endgame:ppo-v3:tricks=6,OPTIONS
#     base "bag_cost=10" (the base); nil13 "bag_cost=10,nil_tricks=13"; bagN "bag_cost=N"
#   bash run.sh confirm OPTIONS     # endgame:ppo-v3:tricks=6,OPTIONS's four cells at 47718-47721, the base at 47719
#   bash run.sh tuneK NAME K OPTIONS   # addendum 1: endgame:ppo-v3:tricks=K,OPTIONS at 47717
#   bash run.sh confirm2 K OPTIONS  # addendum 1 (not played): tricks=K,OPTIONS at 47722-47725, the base at 47723
#   bash run.sh versus_ppo          # addendum 2: endgame:ppo-v3:tricks=4,bag_cost=10 against ppo-v3, 47722-47725
# Resumable: a cell whose summary.md exists is skipped.
set -euo pipefail
out=${OUT:-results/hybrid_nil}
base="endgame:ppo-v3:tricks=6,bag_cost=10"
source "$(dirname "$0")/../cell.sh"
hybrid() {  # agent, seed, rules, games, name[, more tournament options]
    cell "$5" --agents "$1" "${OPPONENT:-heuristic-v2}" --rules "$3" --games "$4" --seed "$2" "${@:6}"
}
confirm_at() {  # agent, first seed, folder suffix: the four cells and the base's house-rule games
    hybrid "$1" "$2" house 4000 "house_single$3" --single-hand
    hybrid "$1" $(($2 + 1)) house 400 "house_games$3"
    hybrid "$base" $(($2 + 1)) house 400 "house_games${3}_base"
    hybrid "$1" $(($2 + 2)) default 4000 "default_single$3" --single-hand
    hybrid "$1" $(($2 + 3)) default 400 "default_games$3"
}
case $1 in
    tune) hybrid "endgame:ppo-v3:tricks=6,$3" 47717 house 400 "$2" ;;
    tuneK) hybrid "endgame:ppo-v3:tricks=$3,$4" 47717 house 400 "$2" ;;
    confirm) confirm_at "endgame:ppo-v3:tricks=6,$2" 47718 "" ;;
    confirm2) confirm_at "endgame:ppo-v3:tricks=$2,$3" 47722 2 ;;
    versus_ppo)
        a="endgame:ppo-v3:tricks=4,bag_cost=10"
        OPPONENT=ppo-v3 hybrid "$a" 47722 house 4000 ppo_house_single --single-hand
        OPPONENT=ppo-v3 hybrid "$a" 47723 house 400 ppo_house_games
        OPPONENT=ppo-v3 hybrid "$a" 47724 default 4000 ppo_default_single --single-hand
        OPPONENT=ppo-v3 hybrid "$a" 47725 default 400 ppo_default_games ;;
esac
