"""Agent specs: the strings that name an agent and its constructor arguments; the registry of names.

The protocol itself is :class:`spades_env.agent.Agent`. A spec is::

    NAME[:ARG][:KWARGS]       a registered agent: heuristic, ppo:runs/x.pt, heuristic:seed=3
    MODULE:ATTR[:KWARGS]      a class (or factory) of a module: mybot:Bot:depth=3,style=safe
    FILE.py:ATTR[:KWARGS]     the same from a file: ./bots/mybot.py:Bot

``KWARGS`` is ``key=value,...``; values read as int, float, ``true``/``false``,
``none``, JSON (``[1,2]``, ``"a,b"``) or else text. ``name=...`` is not passed
on: it is the agent's display name in tournament tables.

Modules are looked for in the current directory first (``MODULE.py`` there is
loaded from its file, so a ``random.py`` of yours is yours, not the standard
library's), then among installed packages.

One shape is ambiguous, ``NAME:WORD`` with a registered ``NAME`` and a
Python name ``WORD``. The rule: it is the attribute ``WORD`` of the module
``NAME`` when that module exists and has it (``heuristic:MyAgent`` with a
``heuristic.py`` of yours); otherwise ``WORD`` is the registered agent's
positional argument, which only agents registered with ``positional=True``
take (``ppo:policy`` for a file ``policy``; never the heuristic's seed). When
both readings work (a module ``ppo`` with an attribute ``policy`` and a file
``policy``), it is an error that says how to write each.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import inspect
import json
import re
import sys
import traceback
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Any

from spades_env.agent import Agent, close_agent

AgentFactory = Callable[..., Agent]

_IDENT = re.compile(r"[A-Za-z_]\w*\Z")
_MODULE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*\Z")
_KWARG = re.compile(r"[A-Za-z_]\w*=")
_INT = re.compile(r"[-+]?\d+\Z")
_FLOAT = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\Z")
_PLAIN = re.compile(r"[^,:\"\[\]{}]*\Z")  # text that needs no quotes in a spec
SHAPES = "NAME, NAME:ARG, MODULE:CLASS or FILE.py:CLASS, each optionally followed by :key=value,..."


class AgentSpecError(ValueError):
    """A spec that names no agent, or arguments the agent does not take; the message says what would work."""


# ------------------------------------------------------------------ the registry


@dataclass(frozen=True)
class _Entry:
    factory: str | AgentFactory
    positional: bool

    def resolve(self) -> AgentFactory:
        if isinstance(self.factory, str):
            module, _, attr = self.factory.partition(":")
            return getattr(importlib.import_module(module), attr)
        return self.factory


_REGISTRY: dict[str, _Entry] = {}
_ALIASES: dict[str, str] = {}


def register(name: str, factory: str | AgentFactory, *, positional: bool = True) -> None:
    """Register ``factory`` (a callable, or ``"module:attr"`` imported lazily) under ``name``.

    ``positional``: ``NAME:ARG`` passes ``ARG`` (text) as the factory's first
    argument (``ppo:path.pt``, ``split:ppo+heuristic``). Register an agent
    that takes keyword arguments only with ``positional=False``: then
    ``NAME:Word`` can only name a class ``Word`` of a module ``NAME``.
    """
    _REGISTRY[name] = _Entry(factory, positional)


def register_alias(alias: str, name: str) -> None:
    """Let ``alias`` name the registered agent ``name``: ``heuristic`` for the latest ``heuristic-vN``.

    A shipped agent is registered under a versioned name that never changes
    what it plays (``heuristic-v1``), so that published figures stay
    reproducible; the bare name follows the latest version.
    """
    if name not in _REGISTRY:
        raise ValueError(f"cannot alias {alias!r} to {name!r}: {name!r} is not registered")
    _ALIASES[alias] = name
    _REGISTRY[alias] = _REGISTRY[name]


def registered() -> list[str]:
    return sorted(_REGISTRY)


def versioned_name(spec: str | AgentSpec) -> str:
    """``spec`` with an alias replaced by the versioned name it stands for: ``"heuristic:seed=3"`` ->
    ``"heuristic-v2:seed=3"`` (the display name dropped). Any other spec comes back as it is written: a
    versioned name, a module's class, a file, and an alias given an argument (``ppo:my.pt`` plays that file,
    not the shipped network); an unreadable spec too, so that reports never fail on it."""
    try:
        parsed = spec if isinstance(spec, AgentSpec) else AgentSpec.parse(spec)
    except AgentSpecError:
        return str(spec)
    if parsed.head not in _ALIASES or parsed.part is not None:
        return str(spec)
    return str(replace(parsed, head=_ALIASES[parsed.head], name=None))


# ------------------------------------------------------------------ parsing


def _split(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside JSON strings and brackets."""
    parts, depth, quoted, start = [], 0, False, 0
    for i, ch in enumerate(text):
        if quoted:
            quoted = not (ch == '"' and text[i - 1] != "\\")
        elif ch == '"':
            quoted = True
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return [*parts, text[start:]]


def parse_value(text: str) -> Any:
    """A spec value: int, float, bool (``true``/``false``), None (``none``), JSON, or else the text itself."""
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    if text[:1] in ('"', "[", "{"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise AgentSpecError(f"cannot read {text!r} as JSON: {exc}") from None
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    return text


def format_value(value: Any) -> str:
    """The text :func:`parse_value` reads back as ``value``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str) and _PLAIN.match(value) and parse_value(value) == value:
        return value
    return json.dumps(value, separators=(",", ":"))


def _is_kwargs(part: str) -> bool:
    return all(_KWARG.match(item) for item in _split(part, ","))


def _bad_kwargs(part: str, text: str) -> AgentSpecError:
    """The error for keyword arguments with an item that is not ``key=value`` (a bare comma in a value)."""
    bad = next(item for item in _split(part, ",") if not _KWARG.match(item))
    what = f"{bad!r}, which is not key=value" if bad else "an empty item (a stray comma)"
    return AgentSpecError(f"agent spec {text!r}: the keyword arguments {part!r} have {what}; a value holding "
                          f"a comma is written as JSON, key=\"a,b\" or key=[\"a\",\"b\"]")


def _parse_kwargs(part: str, text: str) -> dict[str, Any]:
    kwargs: dict[str, Any] = {}
    for item in _split(part, ","):
        key, _, value = item.partition("=")
        if key in kwargs:
            raise AgentSpecError(f"agent spec {text!r} gives {key!r} twice")
        kwargs[key] = parse_value(value)
    return kwargs


@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec: its ``head`` (a name, module or file), the ``part`` after it, keyword arguments, and
    the display ``name``. ``str(spec)`` writes it back in a form :meth:`parse` reads."""

    head: str
    part: str | None = None
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    name: str | None = None

    @classmethod
    def parse(cls, text: str) -> AgentSpec:
        parts = _split(text.strip(), ":")
        if len(parts) > 1 and _KWARG.match(parts[-1]) and not _is_kwargs(parts[-1]):
            raise _bad_kwargs(parts[-1], text)
        kwargs = _parse_kwargs(parts.pop(), text) if len(parts) > 1 and _is_kwargs(parts[-1]) else {}
        if not all(parts):
            raise AgentSpecError(f"cannot read agent spec {text!r}: expected {SHAPES}")
        name = kwargs.pop("name", None)
        part = ":".join(parts[1:]) or None  # an argument may hold colons: split:ppo:x.pt+heuristic
        return cls(parts[0], part, kwargs, None if name is None else str(name))

    def __str__(self) -> str:
        items = {**self.kwargs, **({} if self.name is None else {"name": self.name})}
        parts = [self.head, *([] if self.part is None else [self.part])]
        if items:
            parts.append(",".join(f"{k}={format_value(v)}" for k, v in items.items()))
        return ":".join(parts)

    @property
    def label(self) -> str:
        """The name tables show: the ``name=`` given, else the spec without it."""
        return self.name if self.name is not None else str(self)


def display_name(spec: str) -> str:
    """The label of ``spec`` in tables (its ``name=``, else the spec); never fails on an unregistered name."""
    try:
        return AgentSpec.parse(spec).label
    except AgentSpecError:
        return spec


# ------------------------------------------------------------------ modules and files


@contextmanager
def _on_path(folder: Path) -> Iterator[None]:
    """``folder`` first on ``sys.path`` while a user module imports (and imports its neighbours)."""
    entry = str(folder)
    sys.path.insert(0, entry)
    try:
        yield
    finally:
        sys.path.remove(entry)


def _where(exc: BaseException) -> str:
    """``Type: message (file:line)`` of an exception raised in a user's module: one line, with the place."""
    if isinstance(exc, SyntaxError):  # raised by the compiler: the place is in the exception, not the traceback
        return f"SyntaxError: {exc.msg} ({Path(exc.filename or '?').name}:{exc.lineno})"
    frames = traceback.extract_tb(exc.__traceback__)
    place = f" ({Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    return f"{type(exc).__name__}: {exc}{place}".replace("\n", " ")


def _load_file(path: Path, text: str) -> ModuleType:
    """The module in the file ``path``, loaded once per process under a private name."""
    if not path.is_file():
        raise AgentSpecError(f"agent spec {text!r}: no file {path} (from {Path.cwd()})")
    resolved = path.resolve()
    key = f"_spades_agent_{resolved.stem}_{hashlib.sha1(str(resolved).encode()).hexdigest()[:10]}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, resolved)
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module  # before running it: dataclasses and pickle look classes up there
    try:
        with _on_path(resolved.parent):
            spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[key]
        raise AgentSpecError(f"agent spec {text!r}: loading {path} failed: {_where(exc)}") from None
    return module


def _find_module(name: str, text: str) -> ModuleType | None:
    """The module ``name`` (``name.py`` of the current directory first), or None when there is none."""
    if not _MODULE.match(name):
        return None
    local = Path(f"{name}.py")
    if "." not in name and local.is_file():
        return _load_file(local, text)
    try:
        with _on_path(Path.cwd()):
            return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
            return None
        raise AgentSpecError(f"agent spec {text!r}: importing {name} failed: {_where(exc)}") from None
    except Exception as exc:
        raise AgentSpecError(f"agent spec {text!r}: importing {name} failed: {_where(exc)}") from None


def _classes(module: ModuleType) -> list[str]:
    return [n for n, v in vars(module).items() if inspect.isclass(v) and v.__module__ == module.__name__]


def _attribute(module: ModuleType, attr: str, text: str) -> AgentFactory:
    where = getattr(module, "__file__", None) or module.__name__
    factory = getattr(module, attr, None) if _IDENT.match(attr) else None
    if not callable(factory):
        found = _classes(module)
        hint = f"; its classes: {', '.join(found)}" if found else ""
        raise AgentSpecError(f"agent spec {text!r}: {where} has no class or function {attr!r}{hint}")
    return factory


# ------------------------------------------------------------------ resolving and building


def _unknown(spec: AgentSpec, text: str) -> AgentSpecError:
    if spec.part is None:
        here = f"; {spec.head}.py is in the current directory: name its class, {spec.head}:CLASS" \
            if Path(f"{spec.head}.py").is_file() else ""
        return AgentSpecError(f"unknown agent {text!r}: registered names are {', '.join(registered())}; "
                              f"your own class is MODULE:CLASS or ./FILE.py:CLASS{here}")
    return AgentSpecError(f"unknown agent {text!r}: {spec.head!r} is not a registered name and no module "
                          f"{spec.head!r} is in the current directory ({Path.cwd()}) or installed; for a file "
                          f"elsewhere give its path, path/to/{spec.head}.py:{spec.part}")


def _registered(spec: AgentSpec, entry: _Entry, text: str) -> tuple[AgentFactory, tuple]:
    """The factory and positional arguments of ``spec`` whose head is a registered name."""
    if spec.part is None:
        return entry.resolve(), ()
    module = _find_module(spec.head, text) if _IDENT.match(spec.part) else None
    attr = getattr(module, spec.part, None) if module is not None else None
    if callable(attr):
        if entry.positional and Path(spec.part).exists():
            raise AgentSpecError(f"agent spec {text!r} is ambiguous: the registered {spec.head!r} with the file "
                                 f"{spec.part!r}, or {spec.part} of the module {spec.head}; write "
                                 f"{spec.head}:./{spec.part} or {spec.head}.py:{spec.part}")
        return attr, ()
    if not entry.positional:
        raise AgentSpecError(f"agent spec {text!r}: the registered {spec.head!r} takes keyword arguments only "
                             f"({spec.head}:key=value,...); as a class {spec.part!r} of your own module "
                             f"{spec.head!r} it needs a {spec.head}.py here or installed, and there is none")
    return entry.resolve(), (spec.part,)


def _resolve(spec: AgentSpec, text: str) -> tuple[AgentFactory, tuple]:
    """The factory ``spec`` names and the positional arguments to call it with."""
    if spec.head.endswith(".py"):
        if spec.part is None:
            raise AgentSpecError(f"agent spec {text!r}: name the class in the file, {spec.head}:CLASS")
        return _attribute(_load_file(Path(spec.head), text), spec.part, text), ()
    entry = _REGISTRY.get(spec.head)
    if entry is not None:
        return _registered(spec, entry, text)
    module = _find_module(spec.head, text) if spec.part is not None else None
    if module is None:
        raise _unknown(spec, text)
    return _attribute(module, spec.part, text), ()


def _parameters(factory: AgentFactory) -> str:
    try:
        return ", ".join(p.name for p in inspect.signature(factory).parameters.values())
    except (TypeError, ValueError):
        return "..."


_CALL_ERROR = re.compile(r"unexpected keyword argument|positional argument|required keyword")


def _build(factory: AgentFactory, args: tuple, kwargs: dict, text: str) -> Agent:
    """``factory(*args, **kwargs)``, with wrong arguments reported as the spec's error, not a TypeError."""
    title = getattr(factory, "__qualname__", repr(factory))
    try:
        inspect.signature(factory).bind(*args, **kwargs)
    except TypeError as exc:
        raise AgentSpecError(f"agent spec {text!r}: {exc}; {title} takes ({_parameters(factory)})") from None
    except ValueError:  # no signature to check against
        pass
    try:
        agent = factory(*args, **kwargs)
    except TypeError as exc:  # arguments passed on through **kwargs to a constructor that does not take them
        if not _CALL_ERROR.search(str(exc)):
            raise
        raise AgentSpecError(f"agent spec {text!r}: {exc}") from None
    except ImportError as exc:  # an agent whose library is not installed: its message names the extra
        raise AgentSpecError(f"agent spec {text!r}: {exc}") from None
    if not callable(getattr(agent, "act", None)):
        raise AgentSpecError(f"agent spec {text!r}: {title} made a {type(agent).__name__}, which has no "
                             "act(observation, action_mask, view) method")
    return agent


def make_agent(spec: str | AgentSpec, **kwargs) -> Agent:
    """Build an agent from a spec (see the module docstring): ``"heuristic"``, ``"heuristic:seed=3"``,
    ``"ppo:path/to.pt"``, ``"mybot:Bot:depth=3"``, ``"./mybot.py:Bot"``.

    ``kwargs`` are added to the spec's own (and win over them). Raises
    :class:`AgentSpecError` (a ``ValueError``) with a one-line message when
    the spec names no agent or gives arguments the agent does not take.
    """
    parsed = spec if isinstance(spec, AgentSpec) else AgentSpec.parse(spec)
    text = str(spec)
    factory, args = _resolve(parsed, text)
    return _build(factory, args, {**parsed.kwargs, **kwargs}, text)


def agent_spec_argument(text: str) -> str:
    """``argparse`` ``type=`` for an agent spec: the spec, once an agent has been made from it; else argparse's
    one-line usage error naming what was wrong (a script stops before its work, not in a worker's traceback)."""
    try:
        close_agent(make_agent(text))
    except (ValueError, OSError) as exc:  # AgentSpecError, an argument the agent refuses, a missing policy file
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


# ------------------------------------------------------------------ agents files


def _read_mapping(path: Path) -> Any:
    try:
        text = path.read_text()
    except OSError as exc:
        raise AgentSpecError(f"cannot read the agents file {path}: {exc.strerror}") from None
    if path.suffix not in (".yaml", ".yml"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise AgentSpecError(f"{path} is not valid JSON: {exc} (YAML files end in .yaml)") from None
    try:
        import yaml
    except ImportError:
        raise AgentSpecError(f"{path}: YAML needs PyYAML (pip install pyyaml), or write the file as JSON") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise AgentSpecError(f"{path} is not valid YAML: {' '.join(str(exc).split())}") from None


def _file_entry(path: Path, name: str, entry: Any) -> str:
    """One agents-file entry as a spec string carrying its display name."""
    if isinstance(entry, str):
        spec, extra = AgentSpec.parse(entry), {}
    elif (isinstance(entry, Mapping) and set(entry) <= {"spec", "kwargs"} and isinstance(entry.get("spec"), str)
          and isinstance(entry.get("kwargs", {}), Mapping)
          and all(isinstance(k, str) and _IDENT.match(k) for k in entry.get("kwargs", {}))):
        spec, extra = AgentSpec.parse(entry["spec"]), dict(entry.get("kwargs", {}))
    else:
        raise AgentSpecError(f"{path}: agent {name!r}: expected a spec string or "
                             f'{{"spec": "module:Class", "kwargs": {{"key": value}}}}, got {entry!r}')
    return str(replace(spec, kwargs={**spec.kwargs, **extra}, name=str(name)))


def load_agents_file(path: str | Path) -> list[str]:
    """The specs of an agents file: a JSON (or ``.yaml``) mapping of display names to specs, e.g.
    ``{"deep": "mybot:Bot:depth=3", "safe": {"spec": "mybot:Bot", "kwargs": {"style": "safe"}}}``.

    Each spec comes back as one string with the display name in it (``name=deep``),
    so it travels to workers and into ``config.json`` like a spec from the command line.
    """
    path = Path(path)
    data = _read_mapping(path)
    if not isinstance(data, Mapping) or not data:
        raise AgentSpecError(f"{path}: expected a mapping of display names to agent specs, got {data!r}")
    return [_file_entry(path, str(name), entry) for name, entry in data.items()]
