"""Date-times: every runtime accepts the texts JSON Schema's format checker accepts (the one the
tests use), and writes an accepted date-time back as the text it read, in Python, Go and
TypeScript alike: lowercase t and z, -00:00 and +00:00, fractions with trailing zeros or more
digits than a time.Time holds. (A date-time made in code is written in each language's own
RFC 3339: README "Date-times".)"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from conftest import GENERATED, ROOT
from go_driver import GO_ENV, go_available, write_go_mod
from typescript_driver import node_available
from generator.options import load_options

EXAMPLE = json.loads((ROOT / "specs" / "chat_modality" / "examples" / "valid" / "user_sends_message.json").read_text(encoding="utf-8"))

# The JSON Schema Test Suite's date-time strings, and the edges a round trip could lose.
TEXTS = [
    "2024-01-15T10:30:00Z", "2024-01-15t10:30:00z", "2024-01-15T10:30:00z", "2024-01-15t10:30:00Z",
    "2024-01-15T10:30:00-00:00", "2024-01-15T10:30:00+00:00", "2024-01-15T10:30:00.12345678901234567890Z",
    "2024-01-15T10:30:00.500Z", "2024-01-15T10:30:00.000Z", "2024-01-15T10:30:00.0+05:30", "2024-01-15T10:30:00.5+05:30",
    "2024-01-15T10:30:00.123456789-08:00", "1985-04-12T00:59:59.999999999999999Z", "9999-12-31T23:59:59.999999999+23:59",
    "1963-06-19T08:30:06.283185Z", "1937-01-01T12:00:27.87+00:20", "1963-06-19t08:30:06.283185z", "2024-02-29T00:00:00Z",
    # refused by the format checker and by every runtime
    "1998-12-31T23:59:60Z", "1998-12-31T15:59:60.123-08:00", "1998-12-31T23:59:61Z", "2023-02-29T00:00:00Z",
    "1990-12-31T15:59:59-24:00", "1963-06-19T08:30:06.28123+01:00Z", "1990-12-31T24:00:00Z", "1990-12-31T15:60:00Z",
    "1990-12-31T10:00:00+10:60", "06/19/1963 08:30:06 PST", "2013-350T01:01:01", "1963-6-19T08:30:06.283185Z",
    "1963-06-1৪T00:00:00Z", "+11963-06-19T08:30:06.283185Z", "0000-01-01T00:00:00Z", "2024-01-15T10:30:00",
    "2024-01-15 10:30:00Z", "2024-01-15T10:30:00.Z", "2024-01-15T10:30:00+0530", " 2024-01-15T10:30:00Z",
    # a character just below "0" or just past "9" where a digit stands: read as a digit, "1/" would be 9
    "2024-01-1/T10:30:00Z", "2024-1/-15T10:30:00Z", "2/24-01-15T10:30:00Z", "2024-01-15T1/:30:00Z",
    "2024-01-15T10:30:00+05:3/", "2024-01-15T10:30:00+0/:30", "2024-01-1:T10:30:00Z", "2024-01-15T10:30:00+05:3:",
]

# The format checker (rfc3339-validator) matches with `$`, which also matches before a final
# line feed: it accepts "...Z\n", which RFC 3339 does not, and no runtime does.
CHECKER_ACCEPTS_WRONGLY = ["2024-01-15T10:30:00Z\n"]


def _documents(texts: list[str]) -> list[str]:
    return [json.dumps({**EXAMPLE, "timestamp": t}, ensure_ascii=False) for t in texts]


def _python(texts: list[str]) -> list[str | None]:
    """The timestamp each document's to_json writes (None: refused)."""
    from chatformats import chat_modality

    out: list[str | None] = []
    for doc in _documents(texts):
        try:
            out.append(json.loads(chat_modality.parse_chat_modality_from_json(doc).to_json())["timestamp"])
        except chat_modality.ValidationError:
            out.append(None)
    return out


_GO_PROGRAM = """package main

import (
	"encoding/json"
	"os"

	"{module}/chatmodality"
)

func main() {{
	var docs []string
	if err := json.NewDecoder(os.Stdin).Decode(&docs); err != nil {{
		panic(err)
	}}
	out := make([]*string, len(docs))
	for i, doc := range docs {{
		parsed, err := chatmodality.ParseChatModalityFromJSON([]byte(doc))
		if err != nil {{
			continue
		}}
		written, err := json.Marshal(parsed)
		if err != nil {{
			panic(err)
		}}
		var back struct{{ Timestamp string `json:"timestamp"` }}
		if err := json.Unmarshal(written, &back); err != nil {{
			panic(err)
		}}
		out[i] = &back.Timestamp
	}}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {{
		panic(err)
	}}
}}
"""


def _go(texts: list[str], work: Path) -> list[str | None]:
    module = load_options(ROOT).go_module
    work.mkdir(parents=True, exist_ok=True)
    (work / "main.go").write_text(_GO_PROGRAM.format(module=module))
    write_go_mod(work, "datetimes", GENERATED / "go", module)
    done = subprocess.run(["go", "run", "."], cwd=work, input=json.dumps(_documents(texts)), capture_output=True, text=True, env=GO_ENV)
    assert done.returncode == 0, done.stderr[-3000:]
    found: list[str | None] = json.loads(done.stdout)
    return found


def _typescript(texts: list[str], dist: Path) -> list[str | None]:
    code = ("import { readFileSync } from 'node:fs';\n"
            "const mod = await import(process.argv[1]);\n"
            "const out = JSON.parse(readFileSync(0, 'utf8')).map((doc) => {\n"
            "  let parsed;\n"
            "  try { parsed = mod.parseChatModalityFromJSON(doc); } catch (e) { if (e instanceof mod.ValidationError) return null; throw e; }\n"
            "  return JSON.parse(mod.stringifyChatInput(parsed)).timestamp;\n"
            "});\n"
            "process.stdout.write(JSON.stringify(out));\n")
    done = subprocess.run(["node", "--input-type=module", "-e", code, (dist / "chat_modality.js").as_uri()],
                          input=json.dumps(_documents(texts)), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    found: list[str | None] = json.loads(done.stdout)
    return found


def _checker(texts: list[str]) -> list[bool]:
    schema = json.loads((GENERATED / "jsonschema" / "chat_modality.schema.json").read_text(encoding="utf-8"))
    oracle = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    return [oracle.is_valid(json.loads(doc)) for doc in _documents(texts)]


def test_python_accepts_what_the_format_checker_accepts_and_writes_back_the_text_it_read() -> None:
    accepted = _checker(TEXTS)
    assert sum(accepted) >= 15 and not all(accepted)
    assert _python(TEXTS) == [t if ok else None for t, ok in zip(TEXTS, accepted)]
    assert _checker(CHECKER_ACCEPTS_WRONGLY) == [True] and _python(CHECKER_ACCEPTS_WRONGLY) == [None]


@pytest.mark.skipif(not go_available(), reason="Go is not installed: the Go checks did not run")
def test_go_accepts_what_python_accepts_and_writes_back_the_text_it_read(tmp_path: Path) -> None:
    texts = TEXTS + CHECKER_ACCEPTS_WRONGLY
    assert _go(texts, tmp_path) == _python(texts)


@pytest.mark.skipif(not node_available(), reason="node is not installed: the TypeScript checks need it")
def test_typescript_accepts_what_python_accepts_and_writes_back_the_text_it_read(typescript_dist: Path) -> None:
    texts = TEXTS + CHECKER_ACCEPTS_WRONGLY
    assert _typescript(texts, typescript_dist) == _python(texts)
