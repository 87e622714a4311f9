#!/usr/bin/env bash
# Step 2 of eval_plan.txt: the screening's candidate (the search on heuristic-v2 with the Nil settings) against
# heuristic-v2 and search-v1, duplicate, four players; each tournament writes its timings file (CPU ms a
# decision by phase and tricks left).
set -euo pipefail
cand=${CAND:?set CAND to the candidate spec: search-v1:base=heuristic-v2,nil_tricks=13,nil_risk=1.05}
out=${OUT:-results/search3/eval}
t() { spades tournament --workers 2 --no-progress "$@"; }
with_timings() { echo "$cand,name=cand,timings=$out/$1_timings.jsonl"; }
mkdir -p "$out"
t --agents "$(with_timings default_single)" heuristic-v2 --rules default --single-hand --games 2000 --seed 44020 --out "$out/default_single"
t --agents "$(with_timings house_single)" heuristic-v2 --rules house --single-hand --games 2000 --seed 44021 --out "$out/house_single"
t --agents "$(with_timings default_games)" heuristic-v2 --rules default --games 200 --seed 44022 --out "$out/default_games"
t --agents "$(with_timings house_games)" heuristic-v2 --rules house --games 200 --seed 44023 --out "$out/house_games"
t --agents "$(with_timings v1_default_single)" search-v1 --rules default --single-hand --games 1000 --seed 44024 --out "$out/v1_default_single"
# search-v1 on the same deals as the first two (the paired baseline)
t --agents search-v1 heuristic-v2 --rules default --single-hand --games 2000 --seed 44020 --out "$out/base_default_single"
t --agents search-v1 heuristic-v2 --rules house --single-hand --games 2000 --seed 44021 --out "$out/base_house_single"
