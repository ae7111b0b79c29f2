"""Every top-level model, not only each format's root, through every target.

Inputs for a non-root model are the sub-documents found at its positions in the
examples (valid and invalid), all their systematic mutations, and, for a model no
example holds (ChatState, ChatMessage, ...), instances drawn from its $defs schema.
Rule-aware near-misses of the examples check each rule right at its edge. Python
and every other registered driver (Go, TypeScript) must report the same errors, pydantic the same verdict, and jsonschema the
same verdict wherever the exported schema can state the checks.
"""

from __future__ import annotations

import json
import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

import conformance
import fuzz
import mutations
from conftest import format_folders

FOLDERS = format_folders()
SUB_DOCUMENTS_MUTATED = 2  # per model: the richest seeds, every mutation of each


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> conformance.Built:
    return conformance.build(conformance.generated_files(), list(FOLDERS), tmp_path_factory.mktemp("drivers"))


def _invalid_data(folder: Path) -> list[Any]:
    return [json.loads(p.read_text(encoding="utf-8"))["data"] for p in sorted((folder / "examples" / "invalid").glob("*.json"))]


def _check(cases: list[tuple[str, str, str | None, Any]], built: conformance.Built) -> list[str]:
    """(format, label, model or None for the root, document) -> the disagreements found."""
    texts = [json.dumps(doc, ensure_ascii=False) for _, _, _, doc in cases]
    others = {d.label: d.run(built.built[d.target], [(f, t, m) for (f, _, m, _), t in zip(cases, texts)]) for d in built.others()}
    oracles: dict[tuple[str, str | None], Any] = {}
    found = []
    for i, ((fmt, label, model, doc), text) in enumerate(zip(cases, texts)):
        target = next(t for t in fuzz.targets(fmt) if (t.model == model) or (model is None and t.root))
        if (fmt, model) not in oracles:
            from jsonschema import Draft202012Validator

            oracles[(fmt, model)] = Draft202012Validator(target.schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
        py = fuzz.python_verdict(fmt, text, model)
        problem = fuzz.disagreement(oracles[(fmt, model)].is_valid(doc), py, fuzz.pydantic_verdict(fmt, target.model, text),
                                   {language: verdicts[i] for language, verdicts in others.items()})
        if problem:
            found.append(f"{fmt} {target.model} {label}: {text[:300]}\n    {problem}")
    return found


SEEDS = 4  # as in test_fuzz, so the draws are shared (fuzz.drawn keeps them)


@pytest.mark.slow
def test_every_top_level_model_gets_inputs_and_accepts_some_of_them() -> None:
    for fmt, folder in FOLDERS.items():
        for target in fuzz.targets(fmt)[1:]:
            seeds = fuzz.model_seeds(target, folder, SEEDS)
            assert seeds, f"{fmt} {target.model}: no input from the examples or its schema"
            assert any(fuzz.python_verdict(fmt, json.dumps(d), target.model)["ok"] for d in seeds), f"{fmt} {target.model}"


def test_model_positions_follow_the_schema_into_tagged_unions_tuples_and_lists() -> None:
    folder = FOLDERS["chat_modality"]
    doc = json.loads((folder / "examples" / "valid" / "multimodal_message.json").read_text(encoding="utf-8"))
    models = {t.model for t in fuzz.targets("chat_modality")}
    found = list(mutations.model_positions(doc, fuzz.exported_schema("chat_modality"), models))
    assert found == [((), "ChatInput"), (("content", 0), "TextBlock"), (("content", 1), "ImageBlock")]


def test_every_example_sub_document_and_its_mutations_get_one_verdict_from_every_target(built: conformance.Built) -> None:
    cases: list[tuple[str, str, str | None, Any]] = []
    for fmt, folder in FOLDERS.items():
        everything = fuzz.sub_documents(fmt, [*fuzz.valid_examples(folder), *_invalid_data(folder)])
        for target in fuzz.targets(fmt)[1:]:
            seeds = fuzz.model_seeds(target, folder, SEEDS)
            cases += [(fmt, f"sub-document {i}", target.model, d) for i, d in enumerate([*everything[target.model], *seeds])]
            for i, doc in enumerate(_richest(seeds)[:SUB_DOCUMENTS_MUTATED]):
                cases += [(fmt, f"mutation {i}.{j}", target.model, m) for j, m in enumerate(mutations.mutations(doc))]
    assert len({(f, m) for f, _, m, _ in cases}) == sum(len(fuzz.targets(f)) - 1 for f in FOLDERS)
    assert len(cases) > 3000
    found = _check(cases, built)
    assert not found, f"{len(found)} of {len(cases)} cases disagree; first ones:\n" + "\n".join(found[:10])


def _richest(docs: list[Any]) -> list[Any]:
    """The documents with the most values first (they have the most paths to mutate)."""
    return sorted(docs, key=lambda d: -len(mutations.paths(d)))


def _rule_cases() -> list[tuple[str, str, str | None, Any]]:
    cases: list[tuple[str, str, str | None, Any]] = []
    for fmt, folder in FOLDERS.items():
        rules = fuzz.spec_rules(folder)
        valid = fuzz.valid_examples(folder)
        for target in fuzz.targets(fmt):
            docs = valid if target.root else fuzz.sub_documents(fmt, valid)[target.model]
            for doc in docs:
                positions = list(mutations.model_positions(doc, target.schema, {t.model for t in fuzz.targets(fmt)}))
                for label, mutated in mutations.rule_mutations(doc, positions, rules, per_rule=10):
                    cases.append((fmt, label, None if target.root else target.model, mutated))
    return cases


def test_rule_near_misses_get_the_same_errors_from_every_driver_and_the_same_verdict_in_pydantic(built: conformance.Built) -> None:
    cases = _rule_cases()
    assert len(cases) > 500
    found = _check(cases, built)
    assert not found, f"{len(found)} of {len(cases)} rule near-misses disagree; first ones:\n" + "\n".join(found[:10])


def test_every_rule_of_every_spec_is_both_just_triggered_and_just_missed() -> None:
    outcomes: dict[str, set[str]] = defaultdict(set)
    for fmt, label, model, doc in _rule_cases():
        rule = f"{fmt} " + label.split(" ", 3)[0] + " " + " ".join(label.split(" ", 3)[1:3])
        verdict = fuzz.python_verdict(fmt, json.dumps(doc, ensure_ascii=False), model)
        if verdict["ok"]:
            outcomes[rule].add("missed")
        elif label.split(" ", 3)[1] in verdict["keywords"]:
            outcomes[rule].add("triggered")
    wanted = {f"{fmt} {model} {rule['kind']} #{n}" for fmt, folder in FOLDERS.items()
              for model, rules in fuzz.spec_rules(folder).items() for n, rule in enumerate(rules)}
    missing = {rule: {"missed", "triggered"} - outcomes.get(rule, set()) for rule in wanted}
    assert not {r: m for r, m in missing.items() if m}, {r: sorted(m) for r, m in missing.items() if m}


def test_member_of_is_exact_no_case_folding_trimming_or_unicode_normalisation() -> None:
    from chatformats import structured_conversation as sc

    doc = json.loads((FOLDERS["structured_conversation"] / "examples" / "valid" / "basic_two_person.json").read_text(encoding="utf-8"))
    conversation = doc["conversation"]
    name = conversation["people"][0]
    assert conversation["user"] == name
    for miss in [name.upper(), name.lower(), f" {name}", f"{name} ", name[:-1], f"{name}x", f"x{name}"]:
        with pytest.raises(sc.ValidationError) as caught:
            sc.StructuredConversation.from_json(json.dumps({**conversation, "user": miss}))
        assert [e.keyword for e in caught.value.errors] == ["member_of"], miss
    nfc, nfd = unicodedata.normalize("NFC", "Jos\u00e9"), unicodedata.normalize("NFD", "Jos\u00e9")
    assert nfc != nfd
    same = {**conversation, "people": [nfc, *conversation["people"][1:]], "user": nfc,
            "conversation": [{**m, "speaker": nfc if m["speaker"] == name else m["speaker"]} for m in conversation["conversation"]]}
    sc.StructuredConversation.from_json(json.dumps(same))
    with pytest.raises(sc.ValidationError) as caught:
        sc.StructuredConversation.from_json(json.dumps({**same, "user": nfd}))
    assert [e.keyword for e in caught.value.errors] == ["member_of"]
