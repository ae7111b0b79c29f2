"""The generated Go module: gofmt-clean, vetted, tested, fuzzed, and agreeing with Python case by case.

Without Go on the machine these tests are skipped, loudly (see conftest);
CI's .ci/run refuses to run without Go.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import GENERATED, GOLDEN, ROOT, format_folders, generate_cached
from go_driver import GO_ENV, build_driver, go_available, run_driver, write_go_mod
from fuzz import python_verdict
from mutations import mutations
from generator.core import TARGETS, generate
from generator.load import load_spec
from generator.options import load_options
from generator.naming import go_name
from generator.naming import go_package as package_name

pytestmark = pytest.mark.skipif(not go_available(), reason="Go is not installed: the Go checks did not run")

GO_TREE = GENERATED / "go"
MODULE = load_options(ROOT).go_module
FOLDERS = format_folders()
FORMATS = list(FOLDERS)
GOLDEN_CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "spec.json").is_file())


def _go(*args: str, cwd: Path = GO_TREE, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["go", *args], cwd=cwd, capture_output=True, text=True, env=GO_ENV, timeout=timeout)


def _python_verdict(fmt: str, text: str) -> dict[str, Any]:
    """The generated Python's verdict in the driver's shape (fuzz.python_verdict also names the checks)."""
    verdict = python_verdict(fmt, text)
    return {"ok": verdict["ok"], "errors": verdict["errors"]}


def _example_cases(folders: dict[str, Path]) -> list[tuple[str, str, str]]:
    """(format, case name, JSON text) for every valid and invalid example."""
    cases = []
    for fmt, folder in folders.items():
        for path in sorted((folder / "examples" / "valid").glob("*.json")):
            cases.append((fmt, f"{fmt}/valid/{path.stem}", path.read_text(encoding="utf-8")))
        for path in sorted((folder / "examples" / "invalid").glob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))["data"]
            cases.append((fmt, f"{fmt}/invalid/{path.stem}", json.dumps(data, ensure_ascii=False)))
    return cases


def _disagreements(go: list[dict[str, Any]], python: list[dict[str, Any]], cases: list[tuple[str, str, str]]) -> list[str]:
    return [f"{name}: {text[:300]}\n  python: {p}\n  go:     {g}" for (_, name, text), g, p in zip(cases, go, python) if g != p]


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_driver(GO_TREE, MODULE, FORMATS, tmp_path_factory.mktemp("driver"))


def test_generated_go_is_gofmt_clean() -> None:
    done = subprocess.run(["gofmt", "-l", "."], cwd=GO_TREE, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "", f"not gofmt-clean (fix the templates):\n{done.stdout}{done.stderr}"


def test_generated_go_vets_and_its_tests_pass() -> None:
    vet = _go("vet", "./...")
    assert vet.returncode == 0, vet.stderr
    test = _go("test", "-count=1", "./...")
    assert test.returncode == 0, test.stdout + test.stderr
    assert test.stdout.count("ok ") >= len(FORMATS)


# staticcheck, pinned; the Go module proxy serves it, and go run keeps the built tool in GOCACHE.
# Its first run on a machine builds it: about 55 s of CPU time (72 s wall with the downloads, on a
# loaded 2-core machine, with an empty GOCACHE and GOMODCACHE); after that about 1 s.
STATICCHECK = "honnef.co/go/tools/cmd/staticcheck@v0.8.2"


def _staticcheck(module: Path) -> subprocess.CompletedProcess[str]:
    return _go("run", STATICCHECK, "./...", cwd=module, timeout=900)


@pytest.mark.slow
def test_generated_go_and_every_golden_case_are_staticcheck_clean(tmp_path: Path) -> None:
    done = _staticcheck(GO_TREE)
    assert done.returncode == 0, f"staticcheck on generated/go:\n{done.stdout[-6000:]}{done.stderr[-3000:]}"
    _golden_output(tmp_path / "golden", ("go",))
    done = _staticcheck(tmp_path / "golden" / "go")
    assert done.returncode == 0, f"staticcheck on the golden cases' Go:\n{done.stdout[-6000:]}{done.stderr[-3000:]}"
    # The check can fail: an unused function planted in a copy of the runtime is reported.
    planted = tmp_path / "planted"
    shutil.copytree(GO_TREE, planted)
    (planted / "internal" / "rt" / "zz_planted.go").write_text("package rt\n\nfunc plantedUnused() {}\n")
    done = _staticcheck(planted)
    assert done.returncode != 0 and "plantedUnused" in done.stdout and "U1000" in done.stdout, done.stdout + done.stderr


def test_every_example_gets_the_same_errors_in_go_and_python(driver: Path) -> None:
    cases = _example_cases(FOLDERS)
    go = run_driver(driver, [(fmt, text) for fmt, _, text in cases])
    python = [_python_verdict(fmt, text) for fmt, _, text in cases]
    assert not _disagreements(go, python, cases), "\n".join(_disagreements(go, python, cases))
    assert sum(v["ok"] for v in go) >= 3 * len(FORMATS) and sum(not v["ok"] for v in go) >= 8 * len(FORMATS)


def test_mutated_examples_get_the_same_errors_in_go_and_python(driver: Path) -> None:
    cases = []
    for fmt, name, text in _example_cases(FOLDERS):
        if "/valid/" in name:
            for i, doc in enumerate(mutations(json.loads(text))):
                cases.append((fmt, f"{name}#{i}", json.dumps(doc, ensure_ascii=False)))
    assert len(cases) > 2000
    go = run_driver(driver, [(fmt, text) for fmt, _, text in cases])
    python = [_python_verdict(fmt, text) for fmt, _, text in cases]
    found = _disagreements(go, python, cases)
    assert not found, f"{len(found)} of {len(cases)} cases disagree; first ones:\n" + "\n".join(found[:10])
    assert any(v["ok"] for v in go) and any(not v["ok"] for v in go)


def _golden_output(out: Path, targets: tuple[str, ...] = TARGETS) -> None:
    """Every golden case generated together into out (each target's folder: out/go, out/python, ...)."""
    # The project's options (its Go module) without the opt-in msgspec package, which refuses some golden cases.
    options = dataclasses.replace(load_options(ROOT), msgspec=False)
    files = generate_cached([load_spec(GOLDEN / case, ROOT) for case in GOLDEN_CASES], targets=targets, options=options)
    for path, text in files.items():
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def test_golden_cases_compile_vet_and_agree_with_python(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _golden_output(out)
    fmt = subprocess.run(["gofmt", "-l", "."], cwd=out / "go", capture_output=True, text=True)
    assert fmt.stdout == "", f"golden Go not gofmt-clean:\n{fmt.stdout}"
    vet = _go("vet", "./...", cwd=out / "go")
    assert vet.returncode == 0, vet.stderr
    binary = build_driver(out / "go", MODULE, GOLDEN_CASES, tmp_path / "driver")
    cases = _example_cases({case: GOLDEN / case for case in GOLDEN_CASES})
    go = run_driver(binary, [(f, t) for f, _, t in cases])
    code = ("import importlib, json, sys\n"
            "cases = json.load(sys.stdin)\nout = []\n"
            "for fmt, text in cases:\n"
            "    mod = importlib.import_module('chatformats.' + fmt)\n"
            "    try:\n        getattr(mod, 'parse_' + fmt + '_from_json')(text); out.append({'ok': True, 'errors': []})\n"
            "    except mod.ValidationError as e:\n        out.append({'ok': False, 'errors': [[x.path, x.message] for x in e.errors]})\n"
            "print(json.dumps(out))\n")
    done = subprocess.run([sys.executable, "-S", "-c", code], input=json.dumps([[f, t] for f, _, t in cases]),
                          capture_output=True, text=True, cwd=out / "python", env={"PYTHONPATH": str(out / "python")})
    assert done.returncode == 0, done.stderr
    python = json.loads(done.stdout)
    assert not _disagreements(go, python, cases), "\n".join(_disagreements(go, python, cases))


_SNIPPET_PROGRAM = """package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	. "{module}/structuredconversation"
	memory "{module}/structuredconversation"
)

// The document's storage interface, which the snippet stores into.
type ProgressUpdate struct{{}}

type QueryResult struct{{}}

type StructuredStorage interface {{
	StoreConversations(ctx context.Context, documents []ConversationDocument, progressChan chan<- ProgressUpdate) error
	Query(ctx context.Context, query string) (QueryResult, error)
}}

type memoryStorage struct{{ stored []ConversationDocument }}

func (m *memoryStorage) StoreConversations(ctx context.Context, documents []ConversationDocument, progressChan chan<- ProgressUpdate) error {{
	m.stored = append(m.stored, documents...)
	return nil
}}

func (m *memoryStorage) Query(ctx context.Context, query string) (QueryResult, error) {{ return QueryResult{{}}, nil }}

func usage(ctx context.Context, jsonData []byte, storage StructuredStorage, progressChan chan ProgressUpdate) error {{
{snippet}
	return nil
}}

func main() {{
	data, _ := os.ReadFile(os.Args[1])
	storage := &memoryStorage{{}}
	if err := usage(context.Background(), data, storage, make(chan ProgressUpdate, 1)); err != nil {{
		fmt.Println("error:", err)
		return
	}}
	doc := storage.stored[0]
	legacy := doc.ToTextDocument()
	out, _ := json.Marshal(legacy)
	fmt.Println(string(out))
}}
"""


def _seed_snippet() -> str:
    # Copied from the seed document into the repository (tests/fixtures), so this runs in any clone.
    text = (ROOT / "tests" / "fixtures" / "structured_conversation_usage.go.txt").read_text(encoding="utf-8")
    usage = text.split("// ---- snippet ----\n", 1)[1]
    return "\n".join("\t" + line if line.strip() else "" for line in usage.strip("\n").splitlines())


@pytest.fixture(scope="module")
def snippet_program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("snippet")
    (work / "main.go").write_text(_SNIPPET_PROGRAM.format(module=MODULE, snippet=_seed_snippet()))
    write_go_mod(work, "snippet", GO_TREE, MODULE)
    done = _go("build", "-o", str(work / "snippet"), ".", cwd=work)
    assert done.returncode == 0, f"the seed document's usage snippet does not compile:\n{done.stderr}"
    return work / "snippet"


def test_seed_usage_snippet_compiles_and_to_text_document_matches_the_original(snippet_program: Path, tmp_path: Path) -> None:
    example = ROOT / "specs" / "structured_conversation" / "examples" / "valid" / "basic_two_person.json"
    done = subprocess.run([str(snippet_program), str(example)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    legacy = json.loads(done.stdout)
    assert legacy == {
        "id": "chat_001",
        "content": "Alice: Hey, want to grab lunch?\nBob: Sure! How about that new pizza place?\nAlice: Perfect! I love pizza. See you at 1pm?",
        "timestamp": "2024-01-15T12:00:00Z",
        "tags": ["food", "plans"],
        "metadata": {"platform": "whatsapp", "session_type": "casual_chat", "source": "messaging_app", "user": "Alice"},
    }
    bad = tmp_path / "bad.json"
    doc = json.loads(example.read_text())
    doc["id"] = ""
    bad.write_text(json.dumps(doc))
    done = subprocess.run([str(snippet_program), str(bad)], capture_output=True, text=True)
    assert done.stdout.strip() == "error: validation failed: document ID is required"


# A count budget, not a time budget: on a loaded machine a time budget flaked
# with "context deadline exceeded" (Go 1.26). `make fuzz` runs a larger count.
FUZZ_BUDGET = "-fuzztime=2000x"


@pytest.mark.parametrize("fmt", FORMATS)
def test_fuzzing_finds_no_panic(fmt: str) -> None:
    target = "FuzzParse" + "".join(w.capitalize() for w in fmt.split("_"))
    done = _go("test", f"./{package_name(fmt)}", "-run=^$", f"-fuzz=^{target}$", FUZZ_BUDGET)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_the_fuzz_target_holds_on_date_times_go_time_refuses(tmp_path: Path) -> None:
    """RFC 3339 allows a lowercase t and z; the Parse functions accept them and write them back as
    read, and time.Time's own UnmarshalJSON refuses them. The fuzz target's last property
    (plain encoding/json reads the encoded form) must allow exactly that, as the README says; a fuzz
    cache once kept such an input. Run as corpus files, which plain `go test` runs as seeds."""
    tree = tmp_path / "go"
    shutil.copytree(GO_TREE, tree)
    corpus = tree / "chatmodality" / "testdata" / "fuzz" / "FuzzParseChatModality"
    corpus.mkdir(parents=True)
    texts = [
        '{"timestamp":"2024-03-15t10:30:05Z","role":"assistant","content":"hi"}',
        '{"timestamp":"2024-03-15T10:30:05z","role":"assistant","content":"hi"}',
    ]
    for i, text in enumerate(texts):
        (corpus / f"case{i}").write_text(f"go test fuzz v1\n[]byte({json.dumps(text)})\n", encoding="utf-8")
    done = _go("test", "./chatmodality", "-run=^FuzzParseChatModality$", "-v", cwd=tree)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    for i in range(len(texts)):
        assert f"FuzzParseChatModality/case{i}" in done.stdout
    # The exemption is that narrow: a date-time Go's time package reads fails the property as before.
    fuzz = tree / "chatmodality" / "fuzz_test.go"
    fuzz.write_text(fuzz.read_text(encoding="utf-8").replace("json.Unmarshal(out, &plain)", "json.Unmarshal([]byte(`{\"timestamp\": \"x\"}`), &plain)"), encoding="utf-8")
    done = _go("test", "./chatmodality", "-run=^FuzzParseChatModality$", cwd=tree)
    assert done.returncode != 0 and "encoding/json cannot read the encoded form" in done.stdout


_HOSTILE_PROGRAM = """package main

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"{module}/chatmodality"
	"{module}/structuredconversation"
)

func deep(levels int) any {
	var v any = "leaf"
	for i := 0; i < levels; i++ {
		v = map[string]any{"k": []any{v}}
	}
	return v
}

func show(err error) string {
	var ve *chatmodality.ValidationError
	if errors.As(err, &ve) {
		return fmt.Sprintf("%d errors, first %s, last %s", len(ve.Errors), ve.Errors[0], ve.Errors[len(ve.Errors)-1])
	}
	return fmt.Sprintf("%v", err)
}

func main() {
	_, err := chatmodality.ParseChatModalityFromJSON(bytes.Repeat([]byte("["), 3_000_000))
	fmt.Println("3 MB of [:", err != nil)
	valid := []byte({valid})
	doc := string(valid[:len(valid)-1]) + `, "metadata": {"deep": ` + strings.Repeat(`{"k": [`, 50_000) + "1" + strings.Repeat("]}", 50_000) + "}}"
	_, err = chatmodality.ParseChatModalityFromJSON([]byte(doc))
	fmt.Println("deep metadata:", show(err))
	input, err := chatmodality.ParseChatModalityFromJSON(valid)
	if err != nil {
		panic(err)
	}
	input.Metadata = map[string]any{"deep": deep(1_000_000)}
	fmt.Println("Validate:", show(input.Validate()))
	out, err := input.MarshalJSON()
	fmt.Println("MarshalJSON:", err, bytes.Count(out, []byte(`{"k":[`)))
	var b strings.Builder
	b.WriteString(`{"id": "c", "conversation": {"source": "s", "user": "a", "people": ["a"], "conversation": [`)
	for i := 0; i < 20_000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"speaker": "nobody", "content": "hi", "time": "2024-01-15T12:00:00Z"}`)
	}
	b.WriteString("]}}")
	_, err = structuredconversation.ParseStructuredConversationFromJSON([]byte(b.String()))
	fmt.Println("member_of:", show(err))
	fmt.Println("still running")
}
"""


def test_go_survives_hostile_depth_and_caps_errors(tmp_path: Path) -> None:
    valid = (FOLDERS["chat_modality"] / "examples" / "valid" / "user_sends_message.json").read_text()
    valid = json.dumps(json.loads(valid))
    (tmp_path / "main.go").write_text(_HOSTILE_PROGRAM.replace("{module}", MODULE).replace("{valid}", json.dumps(valid)))
    write_go_mod(tmp_path, "hostile", GO_TREE, MODULE)
    done = _go("run", ".", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[0] == "3 MB of [: true"
    assert lines[1].startswith("deep metadata: 1 errors, first /metadata/deep/k/0/k/0/") and lines[1].endswith(": nesting deeper than 128 levels is not accepted")
    assert lines[2].startswith("Validate: 1 errors, first /metadata/deep/k/0/") and "nesting deeper than 128" in lines[2]
    assert lines[3] == "MarshalJSON: <nil> 1000000"
    assert lines[4] == "member_of: 101 errors, first /conversation/conversation/0/speaker: message 0: speaker 'nobody' must be included in the people list, last /: ... and 19900 more problems"
    assert lines[5] == "still running"


_UPGRADE_PROGRAM = """package main

import (
	"encoding/json"
	"fmt"
	"os"

	"{module}/droidletchat"
	"{module}/droidletchatv1"
)

func main() {{
	out := map[string]json.RawMessage{{}}
	for _, path := range os.Args[1:] {{
		data, _ := os.ReadFile(path)
		v1, err := droidletchatv1.ParseDroidletChatV1FromJSON(data)
		if err != nil {{
			panic(err)
		}}
		v2, err := droidletchat.UpgradeFromV1(v1)
		if err != nil {{
			panic(err)
		}}
		out[path], _ = json.Marshal(v2)
	}}
	text, _ := json.Marshal(out)
	fmt.Println(string(text))
}}
"""


def test_droidlet_upgrade_from_v1_agrees_in_go_and_python_and_with_the_v2_examples(tmp_path: Path) -> None:
    from chatformats import droidlet_chat, droidlet_chat_v1

    v1_examples = sorted((FOLDERS["droidlet_chat_v1"] / "examples" / "valid").glob("*.json"))
    assert v1_examples
    (tmp_path / "main.go").write_text(_UPGRADE_PROGRAM.format(module=MODULE))
    write_go_mod(tmp_path, "upgrade", GO_TREE, MODULE)
    built = _go("build", "-o", str(tmp_path / "upgrade"), ".", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    done = subprocess.run([str(tmp_path / "upgrade"), *map(str, v1_examples)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    go = {Path(k).name: v for k, v in json.loads(done.stdout).items()}
    for path in v1_examples:
        python = droidlet_chat.upgrade_from_v1(droidlet_chat_v1.parse_droidlet_chat_v1_from_json(path.read_text())).to_dict()
        assert go[path.name] == python, path.name
        v2_example = FOLDERS["droidlet_chat"] / "examples" / "valid" / path.name
        assert python == json.loads(v2_example.read_text()), path.name


# (document, pointer tokens): pointers into arrays that are too short, non-numeric,
# signed or padded, keys on arrays and indexes on objects, scalars in the way.
_RESOLVE_CASES = [
    ({"people": ["a", "b"]}, ["people", "1"]),
    ({"people": ["a", "b"]}, ["people", "2"]),
    ({"people": ["a", "b"]}, ["people", "name"]),
    ({"people": ["a", "b"]}, ["people", "+1"]),
    ({"people": ["a", "b"]}, ["people", "-1"]),
    ({"people": ["a", "b"]}, ["people", ""]),
    ([], ["0"]),
    ([["x"]], ["0", "0"]),
    ([["x"]], ["0", "1"]),
    ({"0": "key"}, ["0"]),
    ({"a": "text"}, ["a", "0"]),
    ({"a": None}, ["a"]),
    ({"a": {"b": [1, {"c": "deep"}]}}, ["a", "b", "1", "c"]),
    ({"a": 1}, []),
]


def test_rule_pointers_resolve_alike_in_go_and_python(tmp_path: Path) -> None:
    # The rule code follows pointer tokens with rt.Resolve (Go) and resolve (Python); the specs'
    # own pointers never reach a too-short array or a key on an array, so this pins those edges.
    import shutil

    from chatformats._runtime import _MISSING, resolve

    tree = tmp_path / "go"
    shutil.copytree(GO_TREE, tree)
    rows = []
    for document, pointer in _RESOLVE_CASES:
        found = resolve(document, tuple(pointer))
        want = "missing" if found is _MISSING else json.dumps(found, separators=(",", ":"))
        rows.append(f"\t\t{{{json.dumps(json.dumps(document))}, {json.dumps(pointer).replace('[', '[]string{', 1)[:-1]}}}, {json.dumps(want)}}},")
    (tree / "internal" / "rt" / "zz_resolve_test.go").write_text(
        "package rt\n\nimport \"testing\"\n\nfunc TestResolveAgreesWithPython(t *testing.T) {\n"
        "\tcases := []struct {\n\t\tdoc     string\n\t\tpointer []string\n\t\twant    string\n\t}{\n" + "\n".join(rows) + "\n\t}\n"
        "\tfor _, c := range cases {\n\t\ttree, err := Decode([]byte(c.doc))\n\t\tif err != nil {\n\t\t\tt.Fatal(err)\n\t\t}\n"
        "\t\tgot := \"missing\"\n\t\tif v, ok := Resolve(tree, c.pointer); ok {\n\t\t\ttext, err := Encode(v)\n\t\t\tif err != nil {\n\t\t\t\tt.Fatal(err)\n\t\t\t}\n"
        "\t\t\tgot = string(text)\n\t\t}\n\t\tif got != c.want {\n\t\t\tt.Errorf(\"Resolve(%s, %q) = %s, Python gives %s\", c.doc, c.pointer, got, c.want)\n\t\t}\n\t}\n}\n")
    done = _go("test", "./internal/rt/", "-run", "TestResolveAgreesWithPython", cwd=tree)
    assert done.returncode == 0, done.stdout + done.stderr


def _go_of_spec(tmp_path: Path, name: str, spec: dict[str, Any]) -> dict[str, str]:
    """The Go package of a spec written here (specs/<name>), generated and written under tmp_path/go."""
    spec_dir = tmp_path / "specs" / name
    spec_dir.mkdir(parents=True)
    (spec_dir / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
    files = generate([load_spec(spec_dir, tmp_path)], options=load_options(ROOT), targets=["go"])
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    return files


def _go_test_beside(tmp_path: Path, package: str, name: str, source: str, run: str) -> subprocess.CompletedProcess[str]:
    """A Go test file written into a copy of the generated module's package, and run."""
    tree = tmp_path / "go"
    shutil.copytree(GO_TREE, tree)
    (tree / package / name).write_text(source, encoding="utf-8")
    return _go("test", f"./{package}", "-run", run, cwd=tree)


def test_tree_helpers_of_different_types_whose_names_spell_alike_get_distinct_names_and_the_package_vets(tmp_path: Path) -> None:
    # M.x is a list of lists of lists of integers, M.x_item a list of lists of strings: both reach a
    # helper for "MXItemItem", once for []int64 and once for []string. One name for both did not compile.
    deep = {"type": "array", "items": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}}
    files = _go_of_spec(tmp_path, "alike", {
        "$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Alike", "description": "Helpers alike.",
        "x-version": "1.0.0", "$ref": "#/$defs/M",
        "$defs": {"M": {"type": "object", "description": "A model.", "properties": {
            "x": deep, "x_item": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}}}}},
    })
    validate = files["go/alike/validate.go"]
    assert "func treeMXItemItem(x []int64) any {" in validate and "func treeMXItemItem2(x []string) any {" in validate
    vet = _go("vet", "./...", cwd=tmp_path / "go")
    assert vet.returncode == 0, vet.stderr


def test_scratch_pools_of_item_types_whose_names_spell_alike_are_distinct_and_read_what_the_exact_walk_reads(tmp_path: Path) -> None:
    # A model named ListString beside lists of []string: both item types spell "scratchListString". The direct
    # reader's lists (rt.Items) must each borrow from a pool of their own type, and read long lists whole.
    files = _go_of_spec(tmp_path, "pools", {
        "$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Pools", "description": "Pools alike.",
        "x-version": "1.0.0", "$ref": "#/$defs/M",
        "$defs": {
            "M": {"type": "object", "description": "A model.", "required": ["a", "b"], "properties": {
                "a": {"type": "array", "items": {"$ref": "#/$defs/ListString"}},
                "b": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}}}},
            "ListString": {"type": "object", "description": "A model.", "required": ["s"], "properties": {"s": {"type": "string"}}},
        },
    })
    validate = files["go/pools/validate.go"]
    declared = re.findall(r"^var (scratch\w+) rt\.Scratch\[(.+)\]$", validate, re.M)
    assert sorted(declared) == [("scratchListString", "ListString"), ("scratchListString2", "[]string"), ("scratchString", "string")], declared
    doc = {"a": [{"s": str(i)} for i in range(40)], "b": [[str(i)] * (i % 7) for i in range(30)]}
    (tmp_path / "go" / "pools" / "long_test.go").write_text(
        "package pools\n\nimport (\n\t\"reflect\"\n\t\"testing\"\n\n\t\"encoding/json\"\n)\n\n"
        "func TestLongListsReadWhole(t *testing.T) {\n"
        f"\ttext := []byte({json.dumps(json.dumps(doc))})\n"
        "\tif !directM(text, new(M)) {\n\t\tt.Fatal(\"the direct reader declined\")\n\t}\n"
        "\tgot, err := ParsePoolsFromJSON(text)\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n"
        "\tvar want M\n\tif err := json.Unmarshal(text, &want); err != nil {\n\t\tt.Fatal(err)\n\t}\n"
        "\tif !reflect.DeepEqual(*got, want) {\n\t\tt.Fatalf(\"%+v\", *got)\n\t}\n}\n", encoding="utf-8")
    done = _go("test", "./pools", cwd=tmp_path / "go")
    assert done.returncode == 0, done.stdout + done.stderr
    vet = _go("vet", "./...", cwd=tmp_path / "go")
    assert vet.returncode == 0, vet.stderr


def test_nested_short_arrays_before_a_long_text_make_room_for_no_more_than_the_text(tmp_path: Path) -> None:
    # rt.Items makes room for as many items as the text left would hold at the rate of an array's first ones.
    # Arrays of tiny items nested 40 deep (near the readers' depth limit), all being read at once, ahead of a
    # 1 MB string: each alone would guess room for the whole text, 40 MB in all; the scanner's budget keeps the
    # sum to the text's length.
    _go_of_spec(tmp_path, "tree", {
        "$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Tree", "description": "A tree.",
        "x-version": "1.0.0", "$ref": "#/$defs/Node",
        "$defs": {"Node": {"type": "object", "description": "A node.", "properties": {
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}, "pad": {"type": "string"}}}},
    })
    node: dict[str, Any] = {}
    for _ in range(40):
        node = {"children": [{}, {}, {}, {}, node]}
    node["pad"] = "x" * 1_000_000
    (tmp_path / "go" / "tree" / "tree.json").write_text(json.dumps(node, separators=(",", ":")), encoding="utf-8")
    (tmp_path / "go" / "tree" / "room_test.go").write_text("""package tree

import (
	"os"
	"runtime"
	"testing"
)

func TestRoomMadeAheadStaysWithinTheText(t *testing.T) {
	text, err := os.ReadFile("tree.json")
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	doc := new(Node)
	ok := directNode(text, doc)
	runtime.ReadMemStats(&after)
	if !ok || len(doc.Children) != 5 {
		t.Fatal("the direct reader declined the tree")
	}
	if took := after.TotalAlloc - before.TotalAlloc; took > 4*uint64(len(text)) {
		t.Fatalf("reading %d bytes allocated %d", len(text), took)
	}
}
""", encoding="utf-8")
    done = _go("test", "./tree", cwd=tmp_path / "go")
    assert done.returncode == 0, done.stdout + done.stderr


_SIBLING_GUESSES_TEST = """package chatevent

import (
	"runtime"
	"strings"
	"testing"
)

// Sibling arrays of one item type (each message's tool_calls), the first four items of each padded one
// space less than the last's, ahead of a long string: each array guesses a little more room than the one
// before. Allocating a new list for each guess cost 86 times a 1 MB input, and grew as L log L.
func TestSiblingArraysGuessingEverMoreRoomAllocateInProportionToTheText(t *testing.T) {
	for _, size := range []int{1 << 20, 4 << 20} {
		const call = `{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}`
		var b strings.Builder
		b.WriteString(`{"session_id":"s","role":"a","messages":[`)
		top := 1
		for 5*top*top/2 < size/3 {
			top++
		}
		for pad := top; pad >= 0; pad-- {
			b.WriteString(`{"role":"a","tool_calls":[` + strings.Repeat(call+strings.Repeat(" ", pad)+",", 4) + call + `]},`)
		}
		b.WriteString(`{"role":"a","content":"x"}],"content":"` + strings.Repeat("x", max(size-b.Len()-4, 0)) + `"}`)
		data := []byte(b.String())
		var before, after runtime.MemStats
		runtime.GC()
		runtime.GC() // the pools emptied: the lists are made anew, as in a fresh process
		runtime.ReadMemStats(&before)
		doc := new(ChatEvent)
		ok := directChatEvent(data, doc)
		runtime.ReadMemStats(&after)
		if !ok || len(doc.Messages) != top+2 {
			t.Fatal("the direct reader declined the document")
		}
		if took := after.TotalAlloc - before.TotalAlloc; took > 8*uint64(len(data)) {
			t.Errorf("reading %d bytes allocated %d (%.0f times)", len(data), took, float64(took)/float64(len(data)))
		}
	}
}
"""


def test_sibling_arrays_that_each_guess_more_room_allocate_in_proportion_to_the_text(tmp_path: Path) -> None:
    # Found by a red team of rt.Items: a chat_event document whose messages' tool_calls arrays each guess a
    # little more room than the last (their first items padded less and less).
    done = _go_test_beside(tmp_path, "chatevent", "guesses_test.go", _SIBLING_GUESSES_TEST, "^TestSiblingArraysGuessingEverMoreRoom")
    assert done.returncode == 0, done.stdout + done.stderr


_STACK_TEST = """package chatevent

import "testing"

// TestADocumentTheCallerDoesNotKeepStaysOnItsStack: Parse<Format>FromJSON is inlined, so its document is the
// caller's to place. One that reads it and lets it go allocates one time less than one that keeps it.
func TestADocumentTheCallerDoesNotKeepStaysOnItsStack(t *testing.T) {
	data := []byte(`{"session_id": "s", "role": "system", "content": null}`)
	var kept *ChatEvent
	keeping := testing.AllocsPerRun(200, func() {
		kept, _ = ParseChatEventFromJSON(data)
	})
	dropping := testing.AllocsPerRun(200, func() {
		doc, err := ParseChatEventFromJSON(data)
		if err != nil || doc.Role != "system" {
			t.Fatal("the example did not parse", err)
		}
	})
	if kept == nil || dropping != keeping-1 {
		t.Errorf("a kept document took %v allocations, a dropped one %v", keeping, dropping)
	}
}
"""


def test_parse_is_inlined_so_a_caller_that_does_not_keep_the_document_keeps_it_on_its_stack(tmp_path: Path) -> None:
    """As json.Unmarshal into a local: the document of a parse that is read and let go costs no allocation. A Parse
    function grown past Go's inlining budget would lose that without failing anything else."""
    built = _go("build", "-gcflags=-m", "./...")
    assert built.returncode == 0, built.stderr
    inlined = set(re.findall(r"can inline (Parse\w+FromJSON)$", built.stderr, re.M))
    assert inlined == {f"Parse{go_name(fmt)}FromJSON" for fmt in FORMATS}, inlined
    done = _go_test_beside(tmp_path, "chatevent", "stack_test.go", _STACK_TEST, "^TestADocumentTheCallerDoesNotKeepStaysOnItsStack$")
    assert done.returncode == 0, done.stdout + done.stderr


_CONCURRENT_TEST = """package structuredconversation

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
)

var concurrentTexts = []string{%s}

// scribble overwrites everything a parse handed out, its lists to their full capacity.
func scribble(doc *ConversationDocument) {
	turns := doc.Conversation.Conversation
	for i := range turns[:cap(turns)] {
		turns[:cap(turns)][i] = ConversationMessage{Speaker: "x", Content: "scribbled"}
	}
	for i := range doc.Conversation.People[:cap(doc.Conversation.People)] {
		doc.Conversation.People[:cap(doc.Conversation.People)][i] = "x"
	}
	for i := range doc.Tags[:cap(doc.Tags)] {
		doc.Tags[:cap(doc.Tags)][i] = "x"
	}
}

// TestParsesFromManyGoroutinesShareNothing: the lists a parse hands out (rt.Items, rt.Scratch's pooled
// loans) are its own, whatever other goroutines parse at the same time and do with what they got.
func TestParsesFromManyGoroutinesShareNothing(t *testing.T) {
	want := make([]*ConversationDocument, len(concurrentTexts))
	for i, text := range concurrentTexts {
		doc, err := ParseStructuredConversationFromJSON([]byte(text))
		if err != nil {
			t.Fatalf("text %%d: %%v", i, err)
		}
		want[i] = doc
	}
	var wg sync.WaitGroup
	wrong := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for r := 0; r < 60; r++ {
				i := (g*31 + r*17) %% len(concurrentTexts)
				got, err := ParseStructuredConversationFromJSON([]byte(concurrentTexts[i]))
				if err != nil || !reflect.DeepEqual(got, want[i]) {
					select {
					case wrong <- fmt.Sprintf("goroutine %%d, text %%d: %%v", g, i, err):
					default:
					}
					return
				}
				scribble(got)
			}
		}(g)
	}
	wg.Wait()
	close(wrong)
	for w := range wrong {
		t.Error(w)
	}
	for i, text := range concurrentTexts {
		again, err := ParseStructuredConversationFromJSON([]byte(text))
		if err != nil || !reflect.DeepEqual(again, want[i]) {
			t.Errorf("text %%d parsed again differs (or its first parse was changed): %%v", i, err)
		}
	}
}
"""


def test_parses_from_many_goroutines_share_nothing(tmp_path: Path) -> None:
    """Documents whose lists are short and long (people, tags, turns; padded so that guesses run high and low),
    parsed from eight goroutines at once, each scribbling over what it got: every parse gives the serial one's
    value, and the serial ones stay as they were."""
    texts = []
    for i in range(40):
        people = [f"p{j}" for j in range(1 + i % 9)]
        turns = [{"speaker": people[j % len(people)], "content": "c" * (1 + (i * j) % 300), "time": f"2024-01-15T12:{j % 60:02d}:00Z"}
                 for j in range(1 + (i * 37) % 260)]
        doc = {"id": f"d{i}", "conversation": {"source": "s", "people": people, "user": people[0], "conversation": turns},
               "tags": [f"t{j}" for j in range(i % 7)], "metadata": {"k": "v" * (i * 97 % 4000)}}
        texts.append(json.dumps(doc, indent=i % 3 or None))
    source = _CONCURRENT_TEST % ", ".join(json.dumps(t) for t in texts)
    done = _go_test_beside(tmp_path, "structuredconversation", "concurrent_test.go", source, "^TestParsesFromManyGoroutinesShareNothing$")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]


def test_malformed_json_is_a_validation_error_with_pythons_message(tmp_path: Path) -> None:
    """Every text of the syntax corpus (tests/json_syntax.py: cuts at every byte, bad escapes,
    control characters, trailing commas, bad numbers, NaN, deep nesting, ...) gets from Go a
    *ValidationError (the driver marks any other error) listing exactly what Python lists: the
    json module's message, its line and column counted in characters."""
    import hostile
    import json_syntax

    binary = build_driver(GO_TREE, MODULE, FORMATS, tmp_path)
    cases = json_syntax.texts()
    wrong = []
    for fmt in sorted({f for f, _ in cases}):
        texts = [t for f, t in cases if f == fmt]
        for text, go in zip(texts, run_driver(binary, [(fmt, t, None) for t in texts])):
            python = hostile.python_verdict(fmt, text)
            if go["ok"] or go["errors"] != python["errors"]:
                wrong.append(f"{text[:120]!r}\n  python: {python['errors'][:2]}\n  go:     {go['errors'][:2]}")
    assert len(cases) > 3000
    assert not wrong, f"{len(wrong)} of {len(cases)} texts differ:\n" + "\n".join(wrong[:10])


_EMPTY_CONVERSATION_PROGRAM = """package main

import (
	"encoding/json"
	"fmt"

	"{module}/structuredconversation"
)

func main() {{
	// Built in code, never validated: a conversation with no message (a parsed one holds at least one).
	doc := structuredconversation.ConversationDocument{{ID: "d", Conversation: structuredconversation.StructuredConversation{{Source: "slack", User: "u"}}}}
	out, _ := json.Marshal(doc.ToTextDocument())
	fmt.Println(string(out))
}}
"""


def test_to_text_document_of_a_conversation_built_with_no_message_has_no_time_in_go_as_in_python(tmp_path: Path) -> None:
    """A document built in code is not checked: ToTextDocument of one with no message gives a text document
    with no timestamp (Python's to_text_document does the same), where reading the first message's time would panic."""
    (tmp_path / "main.go").write_text(_EMPTY_CONVERSATION_PROGRAM.format(module=MODULE), encoding="utf-8")
    write_go_mod(tmp_path, "emptyconversation", GO_TREE, MODULE)
    done = _go("run", ".", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    sys.path.insert(0, str(GENERATED / "python"))
    try:
        from chatformats import structured_conversation as sc
    finally:
        sys.path.remove(str(GENERATED / "python"))
    built = sc.ConversationDocument(id="d", conversation=sc.StructuredConversation(source="slack", people=[], user="u", conversation=[]))
    python = built.to_text_document().to_dict()
    assert json.loads(done.stdout) == python == {"id": "d", "content": "", "metadata": {"source": "slack", "user": "u"}}, (done.stdout, python)
