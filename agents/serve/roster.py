"""What a browser may choose: the agents the server was started with, the rules, and a new game's setup.

A request names an agent by its label in the server's list (:class:`Roster`), never by a spec, a path
or code: the specs come from the command line only. Every choice of a new game is checked here and a
bad one raises :class:`RequestError` with a one-line reason.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from spades_env import rules
from spades_env.agent import check_config, close_agent
from spades_env.game import SpadesConfig, SpadesGame

from ..play.human import HUMAN
from ..play.save import Setup
from ..registry import AgentSpec, make_agent, versioned_name

MAX_SEED = 2**31 - 1
# The rule options a page may set: every option of spades_env.rules but the variant and format, which
# the page asks for on their own; the JSON type of each (None: the option may be switched off).
RULE_OPTIONS: dict[str, tuple[type, bool]] = {
    name: ({"bool": bool, "int": int}[o.type.removesuffix(" | None")], o.type.endswith(" | None"))
    for name, o in rules.OPTIONS.items() if name not in rules.FORMAT_OPTIONS
}
NEW_GAME_FIELDS = {"num_players", "seat", "partner", "opponents", "mode", "rules", "seed"}


class RequestError(Exception):
    """A request the server refuses: an HTTP status and a one-line reason; nothing was changed."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


@dataclass(frozen=True)
class Offered:
    """An agent the server offers: the label a request names it by, its spec, version and variants."""

    label: str
    spec: str
    version: str
    players: tuple[int, ...]

    def to_json(self) -> dict:
        return {"label": self.label, "version": self.version, "players": list(self.players)}


class Roster:
    """The agents of the command line, each built once here to learn the variants it plays (a bad spec
    fails at start, with the registry's one-line reason)."""

    def __init__(self, specs: list[str]) -> None:
        self.offered: dict[str, Offered] = {}
        for text in specs:
            spec = AgentSpec.parse(text)
            if spec.label in self.offered or spec.label == HUMAN:
                raise ValueError(f"agent label {spec.label!r} is given twice or is reserved: add name=... to tell "
                                 "them apart")
            agent = make_agent(spec)
            players = tuple(n for n in (4, 2) if _plays(agent, n))
            close_agent(agent)
            if not players:
                raise ValueError(f"agent {text!r} plays neither the four- nor the two-player game")
            self.offered[spec.label] = Offered(spec.label, str(spec), versioned_name(str(spec)), players)

    def by_label(self, label: Any, num_players: int, role: str) -> Offered:
        offered = self.offered.get(label) if isinstance(label, str) else None
        if offered is None:
            raise RequestError(400, f"{role}: unknown agent {label!r}; this server offers "
                                    f"{', '.join(self.offered)}")
        if num_players not in offered.players:
            raise RequestError(422, f"{role}: {label} does not play the {num_players}-player game")
        return offered

    def by_spec(self, spec: str) -> Offered | None:
        return next((o for o in self.offered.values() if o.spec == spec), None)

    def to_json(self) -> list[dict]:
        return [o.to_json() for o in self.offered.values()]


def describe(config: SpadesConfig) -> str:
    return rules.describe(config)


def _plays(agent, num_players: int) -> bool:
    try:
        check_config(agent, SpadesConfig(num_players=num_players))
    except ValueError:
        return False
    return True


# ------------------------------------------------------------------ rules


def presets() -> list[dict]:
    return [{"name": name, "help": rules.PRESET_HELP.get(name, "")} for name in rules.PRESETS]


def rule_options() -> list[dict]:
    """The options a page may set, with their defaults and help, for its form."""
    return [{"name": name, "type": kind.__name__, "optional": optional, "default": rules.OPTIONS[name].default,
             "help": rules.OPTIONS[name].help} for name, (kind, optional) in RULE_OPTIONS.items()]


def config_of(num_players: int, single_hand: bool, given: Any) -> SpadesConfig:
    """The :class:`SpadesConfig` of a request's ``rules`` object (a ``preset`` and option values)."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise RequestError(400, f"rules must be an object of rule options, got {type(given).__name__}")
    options = dict(given)
    preset = options.pop("preset", None)
    unknown = sorted(set(options) - set(RULE_OPTIONS))
    if unknown:
        raise RequestError(400, f"rules: unknown option {unknown[0]!r}; the options are preset, "
                                f"{', '.join(RULE_OPTIONS)}")
    for name, value in options.items():
        kind, optional = RULE_OPTIONS[name]
        if not (value is None and optional) and type(value) is not kind:
            what = "true or false" if kind is bool else "a whole number" + (" or null" if optional else "")
            raise RequestError(400, f"rules: {name} must be {what}, got {value!r}")
    options |= {"num_players": num_players, "single_hand": single_hand}
    if preset is not None and preset not in rules.PRESETS:
        raise RequestError(400, f"rules: unknown preset {preset!r}; the presets are {', '.join(rules.PRESETS)}")
    try:
        return SpadesConfig.from_preset(preset or "default", **options)
    except ValueError as exc:
        raise RequestError(422, f"rules: {exc}") from None


# ------------------------------------------------------------------ a new game


@dataclass(frozen=True)
class NewGame:
    """A checked new-game request: the save's setup and the offered agent of each bot seat."""

    setup: Setup
    offered: dict[int, Offered]


def _int_field(body: dict, name: str, default: int | None, low: int, high: int) -> int | None:
    value = body.get(name, default)
    if value is None and default is None:
        return None
    if type(value) is not int or not low <= value <= high:
        raise RequestError(400, f"{name} must be a whole number in {low}..{high}, got {value!r}")
    return value


def new_game(body: Any, roster: Roster) -> NewGame:
    """The setup a new-game request asks for, every choice checked (:class:`RequestError` otherwise)."""
    if not isinstance(body, dict):
        raise RequestError(400, "a new game is a JSON object: num_players, seat, partner, opponents, mode, rules")
    unknown = sorted(set(body) - NEW_GAME_FIELDS)
    if unknown:
        raise RequestError(400, f"unknown field {unknown[0]!r}; a new game takes {', '.join(sorted(NEW_GAME_FIELDS))}")
    n = body.get("num_players", 4)
    if n not in (4, 2) or type(n) is not int:
        raise RequestError(400, f"num_players must be 4 or 2, got {n!r}")
    seat = _int_field(body, "seat", 0, 0, n - 1)
    mode = body.get("mode", "hand")
    if mode not in ("hand", "game"):
        raise RequestError(400, f"mode must be 'hand' (a single hand) or 'game' (to the target score), got {mode!r}")
    seed = _int_field(body, "seed", None, 0, MAX_SEED)
    config = config_of(n, mode == "hand", body.get("rules"))
    side_of = SpadesGame(num_players=n).side_of
    opponents = [p for p in range(n) if side_of[p] != side_of[seat]]
    wanted = body.get("opponents")
    wanted = [wanted] * len(opponents) if not isinstance(wanted, list) else wanted
    if len(wanted) != len(opponents):
        raise RequestError(400, f"opponents: give one agent, or one per opponent seat ({len(opponents)})")
    offered = {p: roster.by_label(label, n, "opponents") for p, label in zip(opponents, wanted)}
    if n == 4:
        offered[(seat + 2) % 4] = roster.by_label(body.get("partner"), n, "partner")
    elif "partner" in body:
        raise RequestError(400, "partner: the two-player game has no partners")
    agents = [HUMAN if p == seat else offered[p].spec for p in range(n)]
    seed = secrets.randbelow(MAX_SEED) if seed is None else seed
    return NewGame(Setup(seat, agents, seed, config.to_dict()), offered)

