#!/usr/bin/env bash
# eval_plan.txt: endgame:ppo-2p:tricks=7,bag_cost=10, two players. Resumable: a cell whose summary.md exists is skipped.
set -euo pipefail
out=${OUT:-results/endgame_2p}
agent="endgame:ppo-2p:tricks=7,bag_cost=10"
cell() {  # opponent, seed, rules, games, name[, more tournament options]
    [ -f "$out/$5/summary.md" ] && return 0
    rm -rf "${out:?}/$5"
    spades tournament --workers 2 --num-players 2 --agents "$agent" "$1" --rules "$3" --games "$4" --seed "$2" \
        --out "$out/$5" --no-progress --no-plot "${@:6}"
}
cell heuristic-v2 47730 default 4000 default_single --single-hand
cell heuristic-v2 47731 default 400 default_games
cell heuristic-v2 47732 house 4000 house_single --single-hand
cell heuristic-v2 47733 house 400 house_games
cell ppo-2p 47734 default 4000 ppo_default_single --single-hand
cell ppo-2p 47735 default 400 ppo_default_games
