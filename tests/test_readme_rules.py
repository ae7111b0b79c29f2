"""The README's rules section: its spec holds every rule kind of the meta-schema, and each kind's example
document is rejected by the generated Python with exactly the error the README shows."""

from __future__ import annotations

import json
import re
from pathlib import Path

import conformance
from conftest import ROOT
from generator.core import generate
from generator.load import load_spec

MARKER = "<!-- rules-example:"
# A kind's bullet: "- `kind`: ...", then its document and error: "`{...}` →" and "`/path: message`".
_KIND = re.compile(r"^- `(\w+)`:", re.M)
_EXAMPLE = re.compile(r"`(\{.*\})` →\n\s*`(/[^`:]*): ([^`]*)`")


def _section() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index(MARKER)
    return readme[start : readme.index("\n### ", start)]


def _spec(section: str) -> str:
    return section.split("```json\n", 1)[1].split("\n```", 1)[0]


def _examples(section: str) -> dict[str, tuple[str, list[list[str]]]]:
    """{kind: (document, [[path, message]])}, one per bullet."""
    bullets = _KIND.split(section)[1:]
    out = {}
    for kind, text in zip(bullets[::2], bullets[1::2]):
        found = _EXAMPLE.findall(text)
        assert len(found) == 1, f"the README's bullet on {kind} should show one document and its error"
        doc, path, message = found[0]
        out[kind] = (doc, [[path, message]])
    return out


def test_the_readme_shows_every_rule_kind_of_the_meta_schema() -> None:
    meta = json.loads((ROOT / "generator" / "metaschema" / "chatspec.schema.json").read_text(encoding="utf-8"))
    kinds = set(meta["$defs"]["rule"]["properties"]["kind"]["enum"])
    section = _section()
    spec = json.loads(_spec(section))
    used = {r["kind"] for d in spec["$defs"].values() for r in d.get("x-rules", ())}
    assert used == kinds == set(_examples(section))


def test_each_rule_example_of_the_readme_gets_the_error_it_shows(tmp_path: Path) -> None:
    section = _section()
    folder = tmp_path / "specs" / "talk"
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(_spec(section), encoding="utf-8")
    files = generate([load_spec(folder, tmp_path)], targets=["python"])
    for path, text in files.items():
        (tmp_path / "out" / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "out" / path).write_text(text, encoding="utf-8")
    built = conformance.Built(tmp_path / "out", ("talk",), {"python": tmp_path / "out" / "python"})
    examples = _examples(section)
    valid = '{"people": ["ann"], "turns": [{"role": "user", "user": "ann", "content": "hi", "start_index": 1, "end_index": 1}]}'
    found = built.python([("talk", valid, None)] + [("talk", doc, None) for doc, _ in examples.values()])
    assert (found[0]["ok"], found[0]["errors"], found[0]["keywords"]) == (True, [], [])
    for (kind, (doc, errors)), verdict in zip(examples.items(), found[1:]):
        assert (verdict.get("errors"), verdict.get("keywords")) == (errors, [kind]), f"{kind}: {doc}"
