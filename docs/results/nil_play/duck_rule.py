"""How often a side's standing Nil ducks as nil_play's model says (its highest card under the winner), from records.

    python docs/results/nil_play/duck_rule.py results/nil_play/search-v3_house_single/games.jsonl

For every card a Nil bidder (no trick taken yet) played following suit in a trick it did not lead, with a card of
the suit that stayed under the winner: whether it was its highest such card; counted per agent (hands without a
Blind Nil).
"""

import json
import sys
from collections import Counter

from spades_env.cards import CARD_NAMES, SUIT_OF, TRICK_POWER

CARD = {name: card for card, name in enumerate(CARD_NAMES)}


def main() -> None:
    kept, ducks = Counter(), Counter()
    for line in open(sys.argv[1]):
        game = json.loads(line)
        for hand in game["hands"]:
            if any(hand["blind_nil"]):  # the records' hands are the dealt ones, before a Blind Nil's exchange
                continue
            held = [{CARD[c] for c in cards} for cards in hand["hands"]]
            taken = [0] * 4
            plays = [(s, CARD[c]) for s, c in hand["plays"]]
            for t in range(0, len(plays), 4):
                trick = plays[t:t + 4]
                power = TRICK_POWER[SUIT_OF[trick[0][1]]]
                for i, (seat, card) in enumerate(trick):
                    if i and hand["bids"][seat] == 0 and not taken[seat] and SUIT_OF[card] == SUIT_OF[trick[0][1]]:
                        top = max(power[c] for _, c in trick[:i])
                        under = [c for c in held[seat] if SUIT_OF[c] == SUIT_OF[card] and power[c] < top]
                        if under:
                            agent = game["seats"][seat]
                            ducks[agent] += 1
                            kept[agent] += card == max(under, key=lambda c: power[c])
                    held[seat].discard(card)
                taken[hand["trick_winners"][t // 4]] += 1
    for agent in ducks:
        print(f"{agent}: {kept[agent]} of {ducks[agent]} ducks with the highest card under the winner "
              f"({kept[agent] / ducks[agent]:.0%})")


if __name__ == "__main__":
    main()
