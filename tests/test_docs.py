"""The documentation matches the code.

- generated pages are current (docs/observations.md);
- every ```python block of README.md and docs/ runs (a block that cannot run in CI is marked on
  the line before its fence with ``<!-- not run in CI: reason -->``: it is compiled, and reported
  as skipped with its reason);
- every relative link resolves, anchors included;
- every test that a page names (``tests/test_x.py::test_y``) exists, and every rule of
  docs/rules.md names one;
- the env's argument, observation and action tables, in docs/environment.md and in the
  ``spades_v0`` docstring, agree with the code;
- the repository paths, ``spades_env`` modules and names, and ``spades`` commands and flags that
  the pages name exist (files move: the docs must follow);
- a page with speed figures says when they were measured.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import inspect
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from spades_env import SpadesConfig, spades_v0
from spades_env.actions import NUM_ACTIONS, action_to_str
from spades_env.docs import GENERATED_BLOCKS, observations_markdown, with_generated_blocks
from spades_env.observations import KINDS, observation_size
from spades_env.scoring import POINTS_PER_REWARD

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
NOT_RUN = re.compile(r"<!-- not run in CI: (.+) -->")
# Snippets that import these need the extra named; without it they are skipped, as the library tests are.
EXTRAS = {"sb3_contrib": "sb3", "stable_baselines3": "sb3", "torchrl": "torchrl", "tensordict": "torchrl",
          "tianshou": "tianshou", "ray": "rllib", "rlcard": "rlcard"}
TEST_REF = re.compile(r"`(tests/[\w/]+\.py)::(test_\w+)`")


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


# ------------------------------------------------------------------ generated pages


def test_observation_docs_are_current():
    path = DOCS / "observations.md"
    assert path.read_text() == observations_markdown(), "run: python -m spades_env.docs > docs/observations.md"


@pytest.mark.parametrize("page", sorted(GENERATED_BLOCKS))
def test_generated_rule_tables_are_current(page):
    text = (ROOT / page).read_text()
    assert text == with_generated_blocks(text, GENERATED_BLOCKS[page]), "run: python -m spades_env.docs --write"


# ------------------------------------------------------------------ snippets


@dataclass(frozen=True)
class Snippet:
    path: Path
    line: int  # of the first line of code
    code: str
    not_run: str | None  # the reason, for a block marked not to run in CI

    def __str__(self) -> str:
        return f"{rel(self.path)}:{self.line}"


def snippets_of(path: Path) -> list[Snippet]:
    lines = path.read_text().splitlines()
    found, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "```python":
            end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == "```")
            marker = NOT_RUN.fullmatch(lines[i - 1].strip()) if i else None
            found.append(Snippet(path, i + 2, "\n".join(lines[i + 1:end]) + "\n", marker and marker.group(1)))
            i = end
        i += 1
    return found


def imported_roots(code: str) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            roots.add(node.module.split(".")[0])
    return roots


SNIPPETS = [s for page in pages() for s in snippets_of(page)]


def test_the_snippets_are_found():
    """Guards the parser: the README's two and the RL libraries page's five, among others."""
    assert len(SNIPPETS) >= 15
    assert sum(rel(s.path) == "README.md" for s in SNIPPETS) == 2
    assert sum(rel(s.path) == "docs/rl_libraries.md" for s in SNIPPETS) == 5
    assert sum(s.not_run is not None for s in SNIPPETS) <= 3, "keep the blocks that CI does not run few"


def snippet_param(snippet: Snippet):
    heavy = imported_roots(snippet.code) & set(EXTRAS)
    return pytest.param(snippet, id=str(snippet), marks=[pytest.mark.slow] if heavy else [])


@pytest.mark.parametrize("snippet", [snippet_param(s) for s in SNIPPETS])
def test_snippet_runs(snippet: Snippet, tmp_path, monkeypatch, capsys):
    code = compile(snippet.code, str(snippet), "exec")
    if snippet.not_run:
        pytest.skip(f"{snippet} is marked not to run in CI: {snippet.not_run} (compiled only)")
    for root in sorted(imported_roots(snippet.code) & set(EXTRAS)):
        if importlib.util.find_spec(root) is None:
            pytest.skip(f"{snippet} needs the {EXTRAS[root]!r} extra ({root} is not installed)")
    monkeypatch.chdir(tmp_path)  # a snippet that writes files writes them here
    exec(code, {"__name__": "__docs__"})
    assert capsys.readouterr().out, f"{snippet} printed nothing: a snippet should show what it did"


def test_a_marked_block_is_recognised(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("text\n\n```python\nprint(1)\n```\n\n<!-- not run in CI: trains for an hour -->\n"
                    "```python\ntrain()\n```\n\n```bash\nls\n```\n")
    first, second = snippets_of(page)
    assert (first.line, first.code, first.not_run) == (4, "print(1)\n", None)
    assert (second.code, second.not_run) == ("train()\n", "trains for an hour")


# ------------------------------------------------------------------ links

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def prose(text: str) -> str:
    """The text without fenced blocks and inline code, where brackets are code, not links."""
    return re.sub(r"`[^`\n]*`", "", re.sub(r"```.*?```", "", text, flags=re.S))


def anchors(path: Path) -> set[str]:
    """GitHub's heading anchors of a Markdown page."""
    found = set()
    for line in prose(path.read_text()).splitlines() + re.findall(r"^#+ .*`.*$", path.read_text(), re.M):
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return found


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in LINK.findall(prose(page.read_text())):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target} (no such heading)")
    return broken


@pytest.mark.parametrize("page", pages(), ids=rel)
def test_relative_links_resolve(page):
    assert not broken_links(page), f"{rel(page)}: broken links {broken_links(page)}"


def test_the_link_check_finds_broken_links(tmp_path):
    (tmp_path / "other.md").write_text("# A heading: `code`\n\ntext\n")
    page = tmp_path / "page.md"
    page.write_text("[ok](other.md) [anchor](other.md#a-heading-code) [web](https://example.org/x)\n"
                    "[gone](missing.md) [bad anchor](other.md#nope) `[not a link](nowhere.md)`\n")
    assert broken_links(page) == ["missing.md (no such file)", "other.md#nope (no such heading)"]


# ------------------------------------------------------------------ tests named by the docs


def test_functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


test_functions.__test__ = False  # a helper, not a test


def test_every_test_named_in_the_docs_exists():
    named = {(page, ref) for page in pages() for ref in TEST_REF.findall(page.read_text())}
    assert len({ref for page, ref in named if page.name == "rules.md"}) >= 60
    missing = [f"{rel(page)}: {file}::{name}" for page, (file, name) in sorted(named)
               if not (ROOT / file).is_file() or name not in test_functions(ROOT / file)]
    assert not missing, f"tests named in the docs that do not exist: {missing}"


def test_the_rules_are_cited_where_they_live():
    """The specification is docs/rules.md; the old reference outside the repository is cited nowhere."""
    old = "RULES" + ".md"  # spelled apart, so that this file does not cite it either
    citing = []
    for folder, subfolders, names in os.walk(ROOT):
        outputs = ("build", "dist", "results", "runs") if Path(folder) == ROOT else ()
        subfolders[:] = [d for d in subfolders if not d.startswith(".") and d not in outputs]
        citing += [rel(Path(folder) / n) for n in names if n.endswith((".py", ".md", ".toml"))
                   and old in (Path(folder) / n).read_text(errors="ignore")]
    assert not citing, f"cite docs/rules.md instead of {old} in {sorted(citing)}"


def rule_items(text: str) -> list[str]:
    """The bullet items of docs/rules.md sections 1 and 2, each with its continuation lines."""
    body = text.split("\n## 1.", 1)[1].split("\n## 3.", 1)[0]
    items: list[str] = []
    for line in body.splitlines():
        if line.startswith("- "):
            items.append(line)
        elif line.startswith("  ") and items:
            items[-1] += " " + line.strip()
    return items


def test_every_rule_names_the_test_that_pins_it():
    items = rule_items((DOCS / "rules.md").read_text())
    assert len(items) >= 45 and sum("**Ruling" in i for i in items) >= 15
    unpinned = [item[:80] for item in items if not TEST_REF.search(item)]
    assert not unpinned, f"rules without a test: {unpinned}"


# ------------------------------------------------------------------ the env's tables


def table_rows(text: str, header: str) -> list[list[str]]:
    """The rows of the Markdown table whose header row starts with ``header``, as cell lists."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def shown(value) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value)


def argument_defaults() -> dict[str, str]:
    """Every argument of ``spades_v0.env`` with its default, as the docs write it."""
    defaults = {}
    for fn in (spades_v0.raw_env.__init__, spades_v0.env):
        for p in inspect.signature(fn).parameters.values():
            if p.default is not inspect.Parameter.empty:
                defaults[p.name] = shown(p.default)
    defaults |= {f.name: shown(f.default) for f in dataclasses.fields(SpadesConfig)}
    return defaults


ENV_DOCS = {"docs/environment.md": (DOCS / "environment.md").read_text(), "spades_v0 docstring": spades_v0.__doc__}


@pytest.mark.parametrize("where", sorted(ENV_DOCS))
def test_argument_table_matches_the_code(where):
    rows = table_rows(ENV_DOCS[where], "| argument | default |") + table_rows(ENV_DOCS[where], "| option | default |")
    documented = {name.strip("`"): default.strip("`") for name, default, _ in rows}
    assert documented == argument_defaults()


def test_docstring_signature_matches_the_code():
    code = re.search(r"``` python\n(spades_v0\.env\(.*?\))\n```", spades_v0.__doc__, re.S).group(1)
    call = ast.parse(code).body[0].value
    assert {k.arg: shown(ast.literal_eval(k.value)) for k in call.keywords} == argument_defaults()


@pytest.mark.parametrize("where", sorted(ENV_DOCS))
def test_observation_sizes_match_the_code(where):
    rows = table_rows(ENV_DOCS[where], "| `observation` | 4 players | 2 players |")
    documented = {kind.strip('`"'): (int(four), int(two)) for kind, four, two, _ in rows}
    assert documented == {kind: (observation_size(4, kind), observation_size(2, kind)) for kind in KINDS}


@pytest.mark.parametrize("where", sorted(ENV_DOCS))
def test_action_table_covers_every_id_once(where):
    covered = []
    for ids, meaning in table_rows(ENV_DOCS[where], "| id | action |"):
        low, _, high = ids.partition("..")
        covered += range(int(low), int(high or low) + 1)
        if not high:  # a single id: its row names the action the way action_to_str does
            assert action_to_str(int(low)) in meaning.lower(), (ids, meaning)
    assert covered == list(range(NUM_ACTIONS))


@pytest.mark.parametrize("where", sorted(ENV_DOCS))
def test_reward_scale_and_version_history(where):
    assert f"/ {POINTS_PER_REWARD}" in ENV_DOCS[where]
    if where == "spades_v0 docstring":
        assert "### Version History\n\n* v0:" in ENV_DOCS[where]


# ------------------------------------------------------------------ speed figures


@pytest.mark.parametrize("page", pages(), ids=rel)
def test_speed_figures_say_when_they_were_measured(page):
    """Speed depends on the machine and the day: a page that gives decisions per second says when."""
    text = page.read_text()
    if re.search(r"\d(\.\d+)?[kM]? decisions(/s| per second)", text):
        assert re.search(r"measured on \d{4}-\d{2}-\d{2}", text, re.I), f"{rel(page)} gives speed figures, no date"


# ------------------------------------------------------------------ names the docs use

PATH_REF = re.compile(r"`((?:spades_env|agents|experiments|tests|examples|docs|\.ci)/[^`\s:]*)")
MODULE_REF = re.compile(r"(?<![\w/.])spades_env(?:\.\w+)+")
COMMAND = re.compile(r"^spades (\w+)(.*)")


def code_lines(text: str) -> list[str]:
    """Inline code spans and the lines of fenced blocks: where the docs write commands."""
    fenced = [line.strip() for block in re.findall(r"```\w*\n(.*?)```", text, re.S) for line in block.splitlines()]
    return fenced + re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S))


def resolves(dotted: str) -> bool:
    """``dotted`` is a module of the package, or an attribute of one."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        try:
            found = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.split(".")[0] in EXTRAS:
                pytest.skip(f"{dotted} needs the {EXTRAS[exc.name.split('.')[0]]!r} extra")
            continue
        for attr in parts[cut:]:
            if not hasattr(found, attr):
                return False
            found = getattr(found, attr)
        return True
    return False


def name_problems(text: str) -> list[str]:
    """Repository paths and ``spades_env`` modules or names in ``text`` that do not exist."""
    paths = {p.rstrip(".,") for p in PATH_REF.findall(text) if p.endswith("/") or "." in p.rsplit("/", 1)[-1]}
    missing = [f"no path {p}" for p in sorted(paths) if not (list(ROOT.glob(p)) if "*" in p else (ROOT / p).exists())]
    return missing + [f"no name {m}" for m in sorted(set(MODULE_REF.findall(text))) if not resolves(m)]


def command_problems(text: str, capsys) -> list[str]:
    """``spades`` commands and flags in the code of ``text`` that the command line does not have."""
    from spades_env.agents.cli import COMMANDS, main

    problems = []
    for command, rest in (m.groups() for line in code_lines(text) if (m := COMMAND.match(line))):
        if command not in COMMANDS:
            problems.append(f"no command spades {command}")
            continue
        with pytest.raises(SystemExit):
            main([command, "--help"])
        usage = capsys.readouterr().out
        flags = set(re.findall(r"(?<![\w-])--[a-z][\w-]*", rest))
        problems += [f"spades {command} has no {f}" for f in sorted(flags) if f not in usage]
    return problems


@pytest.mark.parametrize("page", pages(), ids=rel)
def test_paths_and_modules_named_in_the_docs_exist(page):
    assert not name_problems(page.read_text()), rel(page)


@pytest.mark.parametrize("page", pages(), ids=rel)
def test_spades_commands_and_flags_in_the_docs_exist(page, capsys):
    assert not command_problems(page.read_text(), capsys), rel(page)


def test_the_name_and_command_checks_find_what_is_gone(capsys):
    text = ("`agents/registry.py` `agents/nope.py` `spades_env.agents.tournament.evaluate` `spades_env.nope` "
            "`spades_env.SpadesGame.nope` `spades_env/Spades-v0`\n\n```bash\nspades replay x --game 3\n"
            "spades tournament --agents a --no-such-flag\nspades fly\n```\n")
    assert name_problems(text) == ["no path agents/nope.py", "no name spades_env.SpadesGame.nope",
                                   "no name spades_env.nope"]
    assert command_problems(text, capsys) == ["spades tournament has no --no-such-flag", "no command spades fly"]
