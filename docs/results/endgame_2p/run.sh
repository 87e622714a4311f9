#!/usr/bin/env bash
# eval_plan.txt: endgame:ppo-2p:tricks=7,bag_cost=10, two players. Resumable: a cell whose summary.md exists is skipped.
set -euo pipefail
source "$(dirname "$0")/../cell.sh"
out=${OUT:-results/endgame_2p}
agent="endgame:ppo-2p:tricks=7,bag_cost=10"
two() {  # name, opponent, seed, rules, games[, more tournament options]
    cell "$1" --num-players 2 --agents "$agent" "$2" --seed "$3" --rules "$4" --games "$5" "${@:6}"
}
two default_single heuristic-v2 47730 default 4000 --single-hand
two default_games heuristic-v2 47731 default 400
two house_single heuristic-v2 47732 house 4000 --single-hand
two house_games heuristic-v2 47733 house 400
two ppo_default_single ppo-2p 47734 default 4000 --single-hand
two ppo_default_games ppo-2p 47735 default 400
