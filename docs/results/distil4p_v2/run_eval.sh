#!/usr/bin/env bash
# eval_plan.txt's games: the fitted network ("cand") of runs/distil4p_v2, four players, duplicate.
# STAGE=gate: the selection deals only (cand and ppo-v2 against heuristic-v2); STAGE=eval: the evaluation;
# STAGE=endgame: the hybrid's cells.
# Single hands: --games 4000 is 2,000 deals, each played from both sides.
set -euo pipefail
cand=ppo:${CAND:-runs/distil4p_v2/policy.pt}:name=cand
out=${OUT:-results/distil4p_v2}
t() { spades tournament --workers 2 "$@"; }
case ${STAGE:-eval} in
gate)
  t --agents "$cand" heuristic-v2 --rules house --single-hand --games 4000 --seed 47300 --out "$out/gate_cand"
  t --agents ppo-v2 heuristic-v2 --rules house --single-hand --games 4000 --seed 47300 --out "$out/gate_ppo_v2" ;;
eval)
  t --agents "$cand" heuristic-v2 --rules default --single-hand --games 4000 --seed 47301 --out "$out/default_single"
  t --agents "$cand" heuristic-v2 --rules default --games 400 --seed 47302 --out "$out/default_games"
  t --agents "$cand" heuristic-v2 --rules house --single-hand --games 4000 --seed 47303 --out "$out/house_single"
  t --agents "$cand" heuristic-v2 --rules house --games 400 --seed 47304 --out "$out/house_games"
  t --agents "$cand" ppo-v2 --rules house --single-hand --games 4000 --seed 47305 --out "$out/v2_house_single"
  t --agents "$cand" ppo-v2 --rules default --games 400 --seed 47306 --out "$out/v2_default_games" ;;
endgame)
  t --agents "endgame:$cand" heuristic-v2 --rules default --single-hand --games 4000 --seed 47307 --out "$out/endgame_default_single"
  t --agents "endgame:$cand" heuristic-v2 --rules default --games 400 --seed 47308 --out "$out/endgame_default_games"
  t --agents "endgame:$cand" heuristic-v2 --rules house --single-hand --games 4000 --seed 47309 --out "$out/endgame_house_single"
  t --agents "endgame:$cand" heuristic-v2 --rules house --games 400 --seed 47310 --out "$out/endgame_house_games" ;;
esac
