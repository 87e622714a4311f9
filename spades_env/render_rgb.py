"""The table as a picture: the frames of ``render_mode="rgb_array"``, drawn with Pillow.

Pillow rather than pygame (which PettingZoo's own card games use): it is a small wheel that needs no
window, display or SDL, and a frame is the empty table copied, the card sprites pasted on it and a few
lines of text, about a millisecond (``experiments/bench_render.py``), fast enough to record video.

The cards are drawn once, four times larger than shown and scaled down, which gives smooth edges without
a slow anti-aliased drawing of every frame. The suit symbols are shapes (:data:`SUIT_SHAPES`) rather than
font glyphs: the font inside Pillow has no ♠♥♦♣, and the HTML viewer (``spades replay --html``) draws the
same shapes as SVG, so the two pictures agree.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from .cards import RANK_OF, RANKS, SUIT_OF, cards_of, str_to_card
from .game import Phase, SpadesGame
from .render import SEAT_NAMES, bid_text

WIDTH, HEIGHT = 960, 720
CARD_W, CARD_H = 58, 82
FAN_STEP = 23  # horizontal distance between overlapping cards of a hand; the rank and suit corner stays visible
SPRITE_SCALE = 4  # cards are drawn this much larger, then scaled down

FELT = (22, 101, 56)
HEADER = (14, 72, 40)  # the band at the top: hand, phase, scores
HEADER_H = 62
INK = (240, 240, 230)  # text on the felt
HIGHLIGHT = (250, 204, 21)  # the player to act, the winner of a trick
SUIT_COLOURS = ((20, 20, 20), (200, 28, 44), (200, 28, 44), (20, 20, 20))  # clubs, diamonds, hearts, spades
BACK_COLOUR = (38, 70, 150)

# Suits as a hand is laid out, left to right: spades, hearts, clubs, diamonds (colours alternate); high to low.
DISPLAY_SUIT_ORDER = (3, 2, 0, 1)
DISPLAY_RANK = {**{r: r for r in RANKS}, "T": "10"}  # what the corner of a card shows

# ------------------------------------------------------------------ suit shapes

# A suit symbol as primitives in a 100 x 100 box (y down): ("polygon", x0, y0, x1, y1, ...) or
# ("circle", cx, cy, r). The one home of the symbols' geometry: this module and the HTML viewer draw them.
Shape = tuple


def _heart_outline(top: float, bottom: float, point_up: bool, steps: int = 48) -> tuple[float, ...]:
    """The classic heart curve (x = 16 sin³t, y = 13 cos t - 5 cos 2t - 2 cos 3t - cos 4t), fitted to
    the box's width and to ``top..bottom``, its point down (hearts) or up (spades)."""
    raw = [(16 * math.sin(t) ** 3, -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)))
           for t in (2 * math.pi * i / steps for i in range(steps))]
    y_low, y_high = min(y for _, y in raw), max(y for _, y in raw)
    points: list[float] = []
    for x, y in raw:
        fraction = (y - y_low) / (y_high - y_low)
        if point_up:
            fraction = 1 - fraction
        points += [round(50 + 50 * x / 16, 2), round(top + (bottom - top) * fraction, 2)]
    return tuple(points)


_STEM = ("polygon", 46, 58, 54, 58, 68, 100, 32, 100)
SUIT_SHAPES: dict[int, tuple[Shape, ...]] = {
    0: (("circle", 50, 26, 23), ("circle", 25, 60, 23), ("circle", 75, 60, 23),
        ("polygon", 50, 30, 28, 60, 72, 60), _STEM),  # clubs
    1: (("polygon", 50, 0, 86, 50, 50, 100, 14, 50),),  # diamonds
    2: (("polygon", *_heart_outline(4, 96, point_up=False)),),  # hearts
    3: (("polygon", *_heart_outline(0, 78, point_up=True)), _STEM),  # spades
}


def draw_suit(draw: ImageDraw.ImageDraw, suit: int, box: tuple[float, float, float, float],
              fill: tuple[int, int, int] | None = None) -> None:
    """Draw the symbol of ``suit`` into ``box`` (left, top, width, height)."""
    left, top, width, height = box
    fill = fill or SUIT_COLOURS[suit]
    sx, sy = width / 100, height / 100
    for kind, *values in SUIT_SHAPES[suit]:
        if kind == "circle":
            cx, cy, r = values
            draw.ellipse((left + (cx - r) * sx, top + (cy - r) * sy, left + (cx + r) * sx, top + (cy + r) * sy),
                         fill=fill)
        else:
            draw.polygon([(left + x * sx, top + y * sy) for x, y in zip(values[::2], values[1::2])], fill=fill)


# --------------------------------------------------------------------- sprites


@functools.cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in font (no font file needed on the machine)."""
    return ImageFont.load_default(size=size)


@dataclass(frozen=True)
class Sprite:
    """Pixels to copy into a frame: ``rgb`` (h, w, 3) and, for shapes that are not rectangles (cards'
    rounded corners), the ``mask`` (h, w, 3) of the pixels they cover."""

    rgb: np.ndarray
    mask: np.ndarray | None = None

    @functools.cached_property
    def solid_rows(self) -> tuple[int, int]:
        """The band of rows the shape covers edge to edge: copied whole, which is many times quicker
        than a masked copy (only the rows above and below it are masked)."""
        full = np.flatnonzero(self.mask.all(axis=(1, 2)))
        return (int(full[0]), int(full[-1]) + 1) if len(full) else (0, 0)

    def blit(self, frame: np.ndarray, x: int, y: int) -> None:
        h, w = self.rgb.shape[:2]
        region = frame[y:y + h, x:x + w]
        if self.mask is None:
            region[...] = self.rgb
            return
        top, bottom = self.solid_rows
        region[top:bottom] = self.rgb[top:bottom]
        for rows in (slice(0, top), slice(bottom, h)):
            np.copyto(region[rows], self.rgb[rows], where=self.mask[rows])


def _blank_card(fill: tuple[int, int, int], outline: tuple[int, int, int]) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    s = SPRITE_SCALE
    image = Image.new("RGBA", (CARD_W * s, CARD_H * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, CARD_W * s - 1, CARD_H * s - 1), radius=6 * s, fill=fill, outline=outline,
                           width=s + 1)
    return image, draw


def _finish(image: Image.Image) -> Sprite:
    """Scale a card down, its soft edge blended into the felt: a frame then only copies pixels."""
    small = image.resize((CARD_W, CARD_H), Image.LANCZOS)
    on_felt = Image.new("RGBA", small.size, (*FELT, 255))
    on_felt.alpha_composite(small)
    alpha = np.asarray(small.getchannel("A"))
    return Sprite(np.asarray(on_felt.convert("RGB")).copy(), np.repeat((alpha > 24)[..., None], 3, axis=2))


@functools.cache
def card_sprite(card: int) -> Sprite:
    """A face-up card: rank and suit in the top-left corner (the part a fanned hand shows), a large suit."""
    s, suit = SPRITE_SCALE, SUIT_OF[card]
    image, draw = _blank_card((252, 252, 248), (120, 120, 120))
    rank = DISPLAY_RANK[RANKS[RANK_OF[card]]]
    draw.text((3 * s, 3 * s), rank, font=font((16 if len(rank) > 1 else 19) * s), fill=SUIT_COLOURS[suit])
    draw_suit(draw, suit, (4.5 * s, 26 * s, 13 * s, 14 * s))
    draw_suit(draw, suit, (24 * s, 40 * s, 28 * s, 30 * s))
    return _finish(image)


@functools.cache
def back_sprite() -> Sprite:
    """A face-down card: a lattice inside a frame."""
    s = SPRITE_SCALE
    image, draw = _blank_card(BACK_COLOUR, (230, 230, 230))
    shape = image.getchannel("A")
    for i in range(-CARD_H, CARD_W, 8):
        draw.line(((7 + i) * s, 7 * s, (7 + i + CARD_H) * s, (7 + CARD_H) * s), fill=(70, 100, 180), width=s)
    draw.rounded_rectangle((5 * s, 5 * s, (CARD_W - 5) * s, (CARD_H - 5) * s), radius=4 * s,
                           outline=(180, 195, 235), width=s)
    image.putalpha(shape)  # the lattice stays inside the card's rounded outline
    return _finish(image)


@functools.lru_cache(maxsize=1024)
def text_sprite(text: str, size: int, fg: tuple[int, int, int] = INK, bg: tuple[int, int, int] = FELT,
                box: tuple[int, int, int] | None = None) -> Sprite:
    """A line of text on its background colour, optionally inside a rounded ``box`` of that colour.

    Text always lands on a known plain colour, so it is drawn (anti-aliased) once and then copied.
    """
    pad = 8 if box else 0
    width, height = int(font(size).getlength(text)) + 2 * pad + 2, int(size * 1.3) + (8 if box else 0)
    image = Image.new("RGB", (width, height), bg)
    draw = ImageDraw.Draw(image)
    if box:
        draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=6, fill=box)
    draw.text((pad + 1, height // 2), text, font=font(size), fill=fg, anchor="lm")
    return Sprite(np.asarray(image).copy())


def put_text(frame: np.ndarray, x: int, y: int, text: str, size: int = 16, centred: bool = False, **style) -> None:
    """``text`` with its left end (or its middle) at ``x`` and its middle at height ``y``."""
    sprite = text_sprite(text, size, **style)
    h, w = sprite.rgb.shape[:2]
    sprite.blit(frame, x - w // 2 if centred else x, y - h // 2)


def display_order(cards: list[int]) -> list[int]:
    """Cards as a hand is laid out: by :data:`DISPLAY_SUIT_ORDER`, high to low within a suit."""
    position = {suit: i for i, suit in enumerate(DISPLAY_SUIT_ORDER)}
    return sorted(cards, key=lambda c: (position[SUIT_OF[c]], -RANK_OF[c]))


# ---------------------------------------------------------------------- layout


@dataclass(frozen=True)
class SeatPlace:
    """Where a seat's hand (its left end, centred fans), label and trick card go."""

    hand_centre: tuple[int, int]  # centre of the fanned hand
    trick: tuple[int, int]  # top-left of the card it plays to the trick


CENTRE = (WIDTH // 2, HEIGHT // 2)
PLACES = {
    "North": SeatPlace((WIDTH // 2, 140), (CENTRE[0] - CARD_W // 2, CENTRE[1] - CARD_H // 2 - 62)),
    "South": SeatPlace((WIDTH // 2, HEIGHT - 58), (CENTRE[0] - CARD_W // 2, CENTRE[1] - CARD_H // 2 + 62)),
    "West": SeatPlace((176, CENTRE[1]), (CENTRE[0] - CARD_W // 2 - 74, CENTRE[1] - CARD_H // 2)),
    "East": SeatPlace((WIDTH - 176, CENTRE[1]), (CENTRE[0] - CARD_W // 2 + 74, CENTRE[1] - CARD_H // 2)),
}


def fan_positions(count: int, centre: tuple[int, int]) -> list[tuple[int, int]]:
    """Top-left corners of ``count`` overlapping cards centred on ``centre``.

    A hand never grows wider than thirteen cards: during a Blind Nil exchange a hand holds up to
    fifteen, and then its cards overlap more.
    """
    step = FAN_STEP if count <= 13 else FAN_STEP * 12 // (count - 1)
    width = CARD_W + step * max(count - 1, 0)
    left, top = centre[0] - width // 2, centre[1] - CARD_H // 2
    return [(left + step * i, top) for i in range(count)]


def shown_trick(game: SpadesGame) -> tuple[list[tuple[int, int]], int | None]:
    """The cards on the table and the trick's winner once it is complete.

    The engine clears a trick as soon as its last card falls; the picture keeps it until the next card
    is led (as players see it), and after the last trick of a hand, until the next hand's first action.
    """
    n = game.num_players
    if game.trick:
        return list(game.trick), None
    if game.phase == Phase.PLAY and game.plays or game.phase == Phase.GAME_OVER and game.plays:
        return list(game.plays[-n:]), game.trick_winners[-1]
    if game.hand_records and not game.actions:
        record = game.hand_records[-1]
        return [(p, str_to_card(c)) for p, c in record["plays"][-n:]], record["trick_winners"][-1]
    return [], None


def seen_by_owner(game: SpadesGame, p: int) -> bool:
    """Whether ``p`` has seen its own cards: after looking (or deciding against Blind Nil); in the
    two-player game a player sees each card it keeps, unless it draws blind for Blind Nil."""
    return game.looked[p] or (game.variant.drawn and not game.blind[p])


# --------------------------------------------------------------------- drawing


class TableRenderer:
    """Draws frames of a game; the empty table is made once and copied for each frame."""

    def __init__(self) -> None:
        self.table = np.empty((HEIGHT, WIDTH, 3), np.uint8)
        self.table[...] = FELT
        self.table[:HEADER_H] = HEADER

    def render(self, game: SpadesGame, seat: int | None = None) -> np.ndarray:
        """The table as a ``(HEIGHT, WIDTH, 3)`` ``uint8`` array (a new one each call).

        ``seat=None`` shows every hand face up; a seat number shows only that seat's hand (once it has
        seen it) and the two-player offered card only when it is offered to that seat.
        """
        frame = self.table.copy()
        if not game.started:  # an empty table
            return frame
        self._header(frame, game)
        for p in range(game.num_players):
            self._hand(frame, game, p, face_up=seat is None or (p == seat and seen_by_owner(game, p)))
        self._trick(frame, game)
        if game.variant.drawn and game.stock_pos < len(game.stock):
            self._stock(frame, game, seat)
        return frame

    def _header(self, frame: np.ndarray, game: SpadesGame) -> None:
        names = SEAT_NAMES[game.num_players]
        role = game.variant.starter
        status = game.phase.name.replace("_", " ").lower()
        if game.phase == Phase.GAME_OVER:
            status = (f"game over: {side_name(game, game.winner)} win" if game.winner is not None
                      else "game over: " + ("truncated" if game.truncated else "no winner"))
        hand = game.hand_number + (0 if game.phase == Phase.GAME_OVER else 1)
        broken = "  ·  spades broken" if game.spades_broken and game.phase == Phase.PLAY else ""
        put_text(frame, 14, 18, f"Hand {hand}  ·  {role} {names[game.dealer]}  ·  {status}{broken}", 17, bg=HEADER)
        sides = "      ".join(f"{side_name(game, s)}: {game.scores[s]} pts, {game.bags[s]} bags" for s in range(2))
        if game.hand_records and (not game.actions or game.phase == Phase.GAME_OVER):
            last = game.hand_records[-1]["points"]
            sides += f"      (last hand {last[0]:+d} / {last[1]:+d})"
        put_text(frame, 14, 44, sides, 17, bg=HEADER)

    def _hand(self, frame: np.ndarray, game: SpadesGame, p: int, face_up: bool) -> None:
        name = SEAT_NAMES[game.num_players][p]
        place = PLACES[name]
        cards = display_order(cards_of(game.hands[p]))
        for card, (x, y) in zip(cards, fan_positions(len(cards), place.hand_centre)):
            (card_sprite(card) if face_up else back_sprite()).blit(frame, x, y)
        dealer = " (dealer)" if p == game.dealer and not game.variant.drawn else ""
        label = f"{name}{dealer}  ·  bid {bid_text(game.bids[p], game.blind[p])}  ·  tricks {game.tricks[p]}"
        x, y = place.hand_centre[0], place.hand_centre[1] - CARD_H // 2 - 20
        if p == game.current_player and game.phase != Phase.GAME_OVER:
            put_text(frame, x, y, label, 16, centred=True, fg=(20, 20, 20), box=HIGHLIGHT)
        else:
            put_text(frame, x, y, label, 16, centred=True)

    def _trick(self, frame: np.ndarray, game: SpadesGame) -> None:
        names = SEAT_NAMES[game.num_players]
        plays, winner = shown_trick(game)
        for i, (p, card) in enumerate(plays):
            x, y = PLACES[names[p]].trick
            if p == winner:
                frame[y - 4:y + CARD_H + 4, x - 4:x + CARD_W + 4] = HIGHLIGHT
            card_sprite(card).blit(frame, x, y)
            if i == 0:
                put_text(frame, x + CARD_W // 2, y + CARD_H + 12, "led", 14, centred=True)
        if winner is not None:
            put_text(frame, CENTRE[0], CENTRE[1], f"{names[winner]} wins", 15, centred=True, fg=HIGHLIGHT)

    def _stock(self, frame: np.ndarray, game: SpadesGame, seat: int | None) -> None:
        """Two players, while drawing: the stock, the discard pile and the card offered."""
        x, y = CENTRE[0] - CARD_W - 12, CENTRE[1] - CARD_H // 2
        back_sprite().blit(frame, x, y)
        put_text(frame, x + CARD_W // 2, y + CARD_H + 12, f"stock {len(game.stock) - game.stock_pos}", 14,
                 centred=True)
        offered = game.offered
        if offered is not None:
            visible = seat is None or seat == game.current_player
            (card_sprite(offered) if visible else back_sprite()).blit(frame, CENTRE[0] + 12, y)
            put_text(frame, CENTRE[0] + 12 + CARD_W // 2, y + CARD_H + 12, "offered", 14, centred=True)
        put_text(frame, CENTRE[0], y - 14, f"discard pile: {game.discard_pile.bit_count()} cards", 14,
                 centred=True)


def side_name(game: SpadesGame, side: int) -> str:
    """``"North+South"``, or the one seat of a two-player side."""
    return "+".join(SEAT_NAMES[game.num_players][m] for m in game.members[side])


@functools.cache
def _default_renderer() -> TableRenderer:
    return TableRenderer()


def render_rgb(game: SpadesGame, seat: int | None = None) -> np.ndarray:
    """One frame of the table (see :meth:`TableRenderer.render`)."""
    return _default_renderer().render(game, seat)
