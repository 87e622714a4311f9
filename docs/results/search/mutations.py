"""Do the solver's tests catch a wrong solver? Each plausible bug put into the kernel in turn, tests/test_solver.py run.

    python docs/results/search/mutations.py > docs/results/search/mutations.txt     # about 15 minutes

Each mutant is one edit of ``spades_env/solver/kernel.py`` (the file is restored afterwards, also on failure); a
mutant is *caught* when a test fails. Each edit invalidates numba's cache, so every run compiles the kernel anew.
Some mutants are meant to survive (``EXPECTED_TO_SURVIVE``): edits that only cost speed, or that change nothing a
test could see; every other survivor is a gap in the tests.
"""

import subprocess
import sys
import time
from pathlib import Path

KERNEL = Path(__file__).resolve().parents[3] / "spades_env" / "solver" / "kernel.py"

MUTANTS = {  # name: (original text, mutated text)
    "quick tricks one too many": (
        "        used |= top_cards(x, run)\n        total += run\n",
        "        used |= top_cards(x, run)\n        total += run + (run > 0)\n"),
    "quick tricks past an opponent's ruff": (
        "                    run = min(run, popcount(st[HAND + other] & mask))", "                    run = run"),
    "sure trump tricks one too many": (
        "    return side, max(popcount(used & st[HAND + side]), popcount(used & st[HAND + side + 2])), used",
        "    return side, max(popcount(used & st[HAND + side]), popcount(used & st[HAND + side + 2])) + 1, used"),
    "a trick's winner never relevant": ("    return 1 << best if same > 1 else 0", "    return 0"),
    "a card's equivalents not relevant": (
        "        rel |= run_below(st[HAND + fr[ply, PLAYER]], live, card)", "        rel |= 0"),
    "table patterns of clubs and diamonds only": (
        "                    or (code23 & tt_w[e, W_MASK + 1]) != tt_w[e, W_PATTERN + 1]):", "                    ):"),
    "a Nil bidder's tricks merged with its partner's": (
        "                    side0 = d0 + d2 if merge[0] else d0 | d2 << 4", "                    side0 = d0 + d2"),
    "trick bounds with carried bags priced": ("    return falls <= 2", "    return True"),
    "one small card stands for the relevant one too": (
        "        if low < 0 or card >= low:", "        if low < 0 or card > low:"),
    "a Nil bidder with any spade takes a trick": (
        "        if top >= 0 and st[HAND + seat] >> top & 1:", "        if top >= 0 and st[HAND + seat] & spades:"),
    "a Nil bidder's card safe with one more below it": (
        "        if popcount(theirs & (b - 1)) > i:", "        if popcount(theirs & (b - 1)) > i + 1:"),
    "a partner's cover need not beat the Nil card": (
        "        if not partner or highest_card(partner) < highest_card(mine):", "        if not partner:"),
    "one small card skips one fewer (speed only)": (
        "        if low < 0 or card >= low:", "        if low < 0 or card >= low - 1:"),
    "classes ignore which Nils stand (the values already tell)": (
        "            vec[i, nf] = standing\n", "            vec[i, nf] = 0\n"),
}
EXPECTED_TO_SURVIVE = {"one small card skips one fewer (speed only)",
                       "classes ignore which Nils stand (the values already tell)"}


def main() -> None:
    original = KERNEL.read_text()
    print("| mutant | tests | expected |")
    print("|---|---|---|")
    try:
        for name, (before, after) in MUTANTS.items():
            if original.count(before) != 1:
                raise SystemExit(f"mutant {name!r}: its text is not once in the kernel (the kernel changed?)")
            KERNEL.write_text(original.replace(before, after))
            start = time.time()
            run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                                  "tests/test_solver.py", "-k", "not a_new_process"],
                                 capture_output=True, text=True, cwd=KERNEL.parents[2])
            verdict = "caught" if run.returncode else "survived"
            expected = "survives" if name in EXPECTED_TO_SURVIVE else "caught"
            print(f"| {name} | {verdict} ({time.time() - start:.0f} s) | {expected} |", flush=True)
    finally:
        KERNEL.write_text(original)


if __name__ == "__main__":
    main()
