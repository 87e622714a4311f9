#!/usr/bin/env bash
# The evaluation of eval_plan.txt: runs/ppo4p_v2mix's final policy ("cand"), four players, duplicate.
set -euo pipefail
cand=ppo:${CAND:-runs/ppo4p_v2mix/policy.pt}:name=cand
out=${OUT:-results/ppo4p_v2mix}
t() { spades tournament --workers 2 "$@"; }
t --agents "$cand" heuristic-v2 --rules default --single-hand --games 4000 --seed 47231 --out "$out/v2_default_single"
t --agents "$cand" heuristic-v2 --rules default --games 400 --seed 47232 --out "$out/v2_default_games"
t --agents "$cand" heuristic-v2 --rules house --single-hand --games 4000 --seed 47233 --out "$out/v2_house_single"
t --agents "$cand" heuristic-v2 --rules house --games 400 --seed 47234 --out "$out/v2_house_games"
t --agents "$cand" ppo-v1 --rules default --single-hand --games 4000 --seed 47235 --out "$out/v1_default_single"
t --agents "$cand" ppo-v1 --rules house --single-hand --games 4000 --seed 47236 --out "$out/v1_house_single"
t --agents "endgame:$cand" heuristic-v2 --rules default --single-hand --games 2000 --seed 47237 --out "$out/endgame_default_single"
t --agents "endgame:$cand" heuristic-v2 --rules house --single-hand --games 2000 --seed 47238 --out "$out/endgame_house_single"
# the addendum: the hybrid in games to 500
t --agents "endgame:$cand" heuristic-v2 --rules default --games 400 --seed 47239 --out "$out/endgame_default_games"
t --agents "endgame:$cand" heuristic-v2 --rules house --games 400 --seed 47240 --out "$out/endgame_house_games"
