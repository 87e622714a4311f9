#!/usr/bin/env bash
# eval_plan.txt's addendum 4: E and F (E with W worlds and MS ms, 64 and 600) at the tuning seed 47674, at 47687 with
# CONFIRM=1.
e=search-v3:nil_play=true,nil_fit=true
exec bash "$(dirname "$0")/run_pair.sh" "$e" E "$e,worlds=${W:-64},ms=${MS:-600}" F 47687
