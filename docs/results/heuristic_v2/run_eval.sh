#!/usr/bin/env bash
# heuristic-v2's evaluation at the seeds of eval_plan.md (fixed before the first game). Resumable: a rerun
# continues each tournament's folder. Writes results/hv2/*/ and copies each summary.md next to this script.
set -euo pipefail
cd "$(dirname "$0")/../../.."
here=docs/results/heuristic_v2
run() {  # name seed players rules format
    local out=results/hv2/$1 fmt=()
    [ "$5" = single ] && fmt=(--single-hand --games 2000) || fmt=(--games 400)
    spades tournament --agents "${AGENTS[@]}" --seed "$2" --num-players "$3" --rules "$4" "${fmt[@]}" ${EXTRA[@]+"${EXTRA[@]}"} \
        --workers 2 --out "$out" --no-progress --no-plot > /dev/null
    cp "$out/summary.md" "$here/$1.md"
}
AGENTS=(heuristic-v2 heuristic-v1)
run v2_v1_4p_default_single 43001 4 default single
run v2_v1_4p_default_games 43002 4 default games
run v2_v1_4p_house_single 43003 4 house single
run v2_v1_4p_house_games 43004 4 house games
run v2_v1_2p_default_single 43005 2 default single
run v2_v1_2p_default_games 43006 2 default games
run v2_v1_2p_house_single 43007 2 house single
run v2_v1_2p_house_games 43008 2 house games
AGENTS=(./tests/blind_nil_bot.py:BlindNilBot heuristic-v2)
run oneline_v2_4p_default_single 43011 4 default single
run oneline_v2_4p_default_games 43012 4 default games
# Context for docs/baselines.md (seeds added after the plan, each fixed before its games): the one-line bot
# against v1, and its Blind Nil without the exchange and in the two-player game.
AGENTS=(./tests/blind_nil_bot.py:BlindNilBot heuristic-v1)
run oneline_v1_4p_default_single 43013 4 default single
run oneline_v1_4p_default_games 43014 4 default games
EXTRA=(--no-blind-nil-exchange)
run oneline_v1_4p_noexchange_single 43015 4 default single
EXTRA=()
run oneline_v1_2p_default_single 43016 2 default single
