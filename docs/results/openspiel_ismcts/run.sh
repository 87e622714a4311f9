#!/usr/bin/env bash
# eval_plan.txt: OpenSpiel's IS-MCTS against heuristic-v2.
#   bash run.sh tune        # the exploration grid at 47757
#   bash run.sh confirm C   # uct_c=C at 47758 (the game's rules) and 47759 (house rule)
#   bash run.sh tune_h      # addendum 1: heuristic-v2's play-outs, the grid at 47757
#   bash run.sh confirm_h C # addendum 1: uct_c=C at 47760 (the game's rules) and 47761 (house rule)
# Resumable: a cell whose summary.md exists is skipped.
set -euo pipefail
source "$(dirname "$0")/../cell.sh"
out=${OUT:-results/openspiel_ismcts}
agent() { echo "openspiel-ismcts:simulations=100,uct_c=$1"; }
heuristic_outs() { echo "openspiel-ismcts:simulations=100,rollout=heuristic-v2,uct_c=$1"; }
case $1 in
    tune)
        for c in 0 25 100 400 1e6; do cell "c$c" --agents "$(agent "$c")" heuristic-v2 --single-hand --games 200 --seed 47757; done ;;
    confirm)
        cell "default_c$2" --agents "$(agent "$2")" heuristic-v2 --single-hand --games 400 --seed 47758
        cell "house_c$2" --agents "$(agent "$2")" heuristic-v2 --single-hand --games 400 --seed 47759 --rules house ;;
    tune_h)
        for c in 0 100 1e6; do cell "h_c$c" --agents "$(heuristic_outs "$c")" heuristic-v2 --single-hand --games 200 --seed 47757; done ;;
    confirm_h)
        cell "h_default_c$2" --agents "$(heuristic_outs "$2")" heuristic-v2 --single-hand --games 400 --seed 47760
        cell "h_house_c$2" --agents "$(heuristic_outs "$2")" heuristic-v2 --single-hand --games 400 --seed 47761 --rules house ;;
esac
