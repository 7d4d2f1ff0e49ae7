"""docs/adding-a-rule-pack.md documents every parameter of every registered implementation.

`vassal-adj packs list --impls` lists each implementation's parameters (the registry's catalog);
a pack author reads the guide to know what each one means and how a seed's rule is written with
it. A parameter is documented when a section of the guide about its implementation names it: a
section whose heading, or the heading of a section it is part of, names the implementation in
backticks (`` `supply.trace` ``), and which writes the parameter in backticks (`` `initial` ``) or
sets it in an example (``initial = 4``). Each implementation's sections hold a TOML example.
"""

from __future__ import annotations

import re
import tomllib

import pytest
from conftest import REPO

from vassal_adj.packs import implementations
from vassal_adj.rules.packs.pack import RulePack

GUIDE = REPO / "docs" / "adding-a-rule-pack.md"
HEADING = re.compile(r"(#{1,6}) ")


def sections(text: str) -> list[tuple[int, str, str]]:
    """(level, heading, body) of each heading outside code blocks, the body up to the next heading."""
    out: list[tuple[int, str, list[str]]] = []
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        m = None if fenced else HEADING.match(line)
        if m:
            out.append((len(m.group(1)), line, []))
        elif out:
            out[-1][2].append(line)
    return [(level, heading, "\n".join(body)) for level, heading, body in out]


def about(text: str, impl: str) -> str:
    """The text of the sections about `impl`: those whose heading or an enclosing heading names it."""
    parts, enclosing = [], []  # enclosing: the (level, heading) of the sections the current one is in
    for level, heading, body in sections(text):
        enclosing = [(lv, h) for lv, h in enclosing if lv < level] + [(level, heading)]
        if any(f"`{impl}`" in h for _, h in enclosing):
            parts += [heading, body]
    return "\n".join(parts)


def names(text: str, param: str) -> bool:
    """Whether `text` names the parameter: in backticks, set in an example, or as an array of tables."""
    return re.search(rf"`{param}`|(?<![\w.-]){param}\s*=(?!=)|\.{param}\]", text) is not None


def test_about_reads_enclosing_headings_and_skips_code() -> None:
    text = (
        "## Movement (`movement.allowance`)\n`combine` is ...\n### Costs\nroad_rates = 1\n```toml\n"
        "# not a heading\nentry_cost = 'free'\n```\n## Supply\n`initial`\n"
    )
    part = about(text, "movement.allowance")
    assert names(part, "combine") and names(part, "road_rates") and names(part, "entry_cost")
    assert not names(part, "initial") and not names(part, "rail")
    assert not names("`xcombine`, combine_rule = 1", "combine")


IMPLS = implementations()


@pytest.mark.parametrize("impl", IMPLS, ids=lambda i: str(i["name"]))
def test_the_guide_documents_every_parameter(impl: dict) -> None:
    text = about(GUIDE.read_text(encoding="utf-8"), impl["name"])
    assert text, f"{GUIDE.name}: no section whose heading names `{impl['name']}`"
    missing = [p for p in impl["params"] if not names(text, p)]
    assert not missing, f"{GUIDE.name}: the sections about `{impl['name']}` do not name {missing}"
    assert "```toml" in text, f"{GUIDE.name}: the sections about `{impl['name']}` give no TOML example"


def test_the_examples_of_the_first_built_ins_are_valid_rules() -> None:
    """Each TOML example of "The first built-ins" replaces or adds its rule in the Kasserine pack, which still loads."""
    text = GUIDE.read_text(encoding="utf-8")
    part = text[text.index("## The first built-ins") :]
    part = part[: part.index("\n## ", 1)]
    examples = re.findall(r"```toml\n(.*?)```", part, re.S)
    assert len(examples) >= 9
    base = tomllib.loads((REPO / "modules" / "kasserine" / "pack.toml").read_text(encoding="utf-8"))
    for example in examples:
        rules = tomllib.loads(example)["rules"]
        pack = RulePack.from_mapping({**base, "rules": {**base["rules"], **rules}}, source=GUIDE.name)
        assert {pack.rule(name).impl for name in rules} <= {i["name"] for i in IMPLS}
