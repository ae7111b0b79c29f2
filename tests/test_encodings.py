"""Every encoding a runtime decodes itself (base64, RFC 3339 date-times, JSON numbers) against a
decoder that is not chatspec's, in Python, Go and TypeScript.

The spec (tests/encodings/spec.json) has a field of each kind, alone and in a list. Each case is
one value in one field, on both sides of every edge: base64 in the standard alphabet and in the
URL-safe one (`-_8=`, which the policy refuses), every padding, whitespace, non-ASCII digits;
date-times at every field's range, leap days and seconds, offsets, fractions finer than each
language holds; numbers at float64's and int64's ends, integral floats, -0.

- The verdict is jsonschema's on the spec as written (with its format checker and the standard
  base64 check), which must agree with the standard library's own decoders (base64 in strict mode,
  datetime.fromisoformat, int and float); every language must reach it, and a document a language
  accepts must validate as built and survive its round trip (tests/conformance.py).
- What each language built is read by a program of the test's own (tests/encodings/: bytes as hex,
  date-times as their instant, numbers as the language writes them) and compared with what the
  standard library decodes from the same text; what each writes back out must decode, by the
  standard library, to the same value. An encoder and a decoder wrong in the same way cannot pass.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import os
import re
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

import conformance
from conftest import ROOT
from generator.core import generate
from generator.load import load_spec
from generator.options import DEFAULT_GO_MODULE

HERE = Path(__file__).resolve().parent / "encodings"
FORMAT = "encodings"
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)

STANDARD = ["", "AA==", "AAA=", "AAAA", "QQ==", "QUI=", "QUJD", "+/8=", "++++", "////", "+/+/", "/+/+", "+A==", "/w==",
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
            base64.b64encode(bytes(range(256))).decode(), base64.b64encode(bytes(range(255, -1, -1))).decode(),
            *(base64.b64encode(bytes(range(250, 250 + n))).decode() for n in range(1, 6)),
            "QR==", "QUJ=", "//==", "+/9="]  # the last four: bits past the last byte are not zero, which RFC 4648 lets a decoder ignore
URL_SAFE = ["-_8=", "____", "----", "-_-_", "_w==", "-A==", "+_8=", "-/8=", base64.urlsafe_b64encode(bytes(range(256))).decode(),
            base64.urlsafe_b64encode(b"\xfb\xff\xbf").decode()]
MALFORMED = ["Q", "QQ", "QQ=", "QUI", "Q===", "QQ===", "QUI==", "QUJD=", "=", "==", "====", "QQ==QQ==", "=QQ=", "QQ=A", "Q=Q=",
             " QQ==", "QQ== ", "QQ==\n", "QQ\n==", "QQ\r\n==", "\tQQ==", "QQ==\u00e9", "\uff31\uff31==", "QQ\u00a0==",
             "\u0660\u0660\u0660\u0660", "QQ%3D%3D", "QQ==\u0000", "data:QQ=="]

DATE_TIMES = [
    "2024-01-15T10:30:00Z", "2024-01-15t10:30:00z", "2024-01-15T10:30:00.1Z", "2024-01-15T10:30:00.123Z",
    "2024-01-15T10:30:00.123456Z", "2024-01-15T10:30:00.1234567Z", "2024-01-15T10:30:00.123456789Z",
    "2024-01-15T10:30:00.999999999Z", "2024-01-15T10:30:00.000000001Z", "2024-01-15T10:30:00.000000+00:00",
    "2024-01-15T10:30:00-00:00", "2024-01-15T10:30:00+23:59", "2024-01-15T10:30:00-23:59", "2024-01-15T10:30:00.5+05:30",
    "2024-01-15T10:30:00.250-09:45", "1970-01-01T00:00:00Z", "1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59.5-01:00",
    "2000-02-29T12:00:00Z", "2024-02-29T00:00:00Z", "2024-12-31T23:59:59Z", "2024-04-30T00:00:00Z",
    "0001-01-01T00:00:00Z", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59Z", "9999-12-31T23:59:59-23:59",
    # refused
    "2024-01-15T10:30:00+24:00", "2024-01-15T10:30:00+05:60", "2024-01-15T24:00:00Z", "2024-01-15T23:60:00Z",
    "2024-06-30T23:59:60Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2024-04-31T00:00:00Z", "2024-13-01T00:00:00Z",
    "2024-00-10T00:00:00Z", "2024-01-00T00:00:00Z", "0000-01-01T00:00:00Z", "2024-01-15 10:30:00Z", "2024-01-15T10:30:00",
    "2024-01-15T10:30Z", "2024-W03-1T10:30:00Z", "2024-01-15T10:30:00+0530", "2024-01-15T10:30:00+05", "\uff12\uff10\uff12\uff14-01-15T10:30:00Z",
    "2024-01-15T10:30:00.Z", "2024-01-15T10:30:00,5Z", "2024-1-15T10:30:00Z", "+2024-01-15T10:30:00Z", "10000-01-01T00:00:00Z",
    "2024-01-15T10:30:00 Z", "2024-01-15T10:30:00ZZ", "2024-01-15T10:30:00Z\n", " 2024-01-15T10:30:00Z", "2024-01-15T1O:30:00Z",
    "2024-01-15T10:30:00\u0660Z", "",
]

NUMBERS = ["0", "-0", "-0.0", "0.0", "1", "-1", "1.5", "0.1", "0.30000000000000004", "1e2", "1E2", "1e+2", "1.0e-2",
           "5e-324", "4.9e-324", "2e-324", "1e-400", "2.2250738585072014e-308", "1e308", "1.7976931348623157e308",
           "1.7976931348623158e308", "-1.7976931348623157e308", "9007199254740993", "123456789012345678901234567890",
           "0.1000000000000000055511151231257827", "1e309", "-1e309", "1e400"]
INTEGERS = ["0", "-0", "1", "-1", "9007199254740993", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
            "-9223372036854775809", "99999999999999999999", "1.0", "-0.0", "1e2", "1E2", "1.5e1", "1.5", "0.5", "1e-1",
            "1e19", "9.223372036854776e18", "-9.223372036854776e18", "1e400", "1e-400"]


def _documents() -> list[str]:
    """Every case as JSON text: each value alone, then in the list field beside a valid one."""
    docs = []
    for field, many, texts in (("blob", "blobs", STANDARD + URL_SAFE + MALFORMED), ("at", "ats", DATE_TIMES)):
        plain = STANDARD[4] if field == "blob" else DATE_TIMES[0]
        for text in texts:
            docs.append(json.dumps({field: text}, ensure_ascii=False))
            docs.append(json.dumps({many: [plain, text]}, ensure_ascii=False))
    for text in NUMBERS:
        docs += [f'{{"n": {text}}}', f'{{"ns": [1, {text}]}}']
    docs += [f'{{"i": {text}}}' for text in INTEGERS]
    return docs


# --- the independent decoders -----------------------------------------------------------------------


def std_base64(text: str) -> bytes | None:
    """The standard library's strict RFC 4648 decoding of the standard alphabet, or None. (Padded text is
    whole quanta of four characters, RFC 4648 section 4; CPython's strict mode lets an "=" follow a whole one.)"""
    if not text.isascii() or len(text) % 4:
        return None
    try:
        return binascii.a2b_base64(text.encode("ascii"), strict_mode=True)
    except binascii.Error:
        return None


_FRACTION = re.compile(r"\.(\d+)")


def std_date_time(text: str) -> tuple[int, int, int] | None:
    """(Unix seconds, nanoseconds, offset in seconds) of RFC 3339 text by datetime.fromisoformat (its
    fraction's digits past microseconds read here), or None where rfc3339-validator refuses the text
    (as jsonschema calls it, on the upper-cased text; its pattern's `$` passes a final line feed)."""
    from rfc3339_validator import validate_rfc3339

    if text.endswith("\n") or not validate_rfc3339(text.upper()):
        return None
    value = datetime.fromisoformat(text.upper())
    found = _FRACTION.search(text[19:])
    nanos = int((found.group(1) + "0" * 9)[:9]) if found else 0
    offset = value.utcoffset()
    assert offset is not None
    return (value.replace(microsecond=0) - EPOCH) // timedelta(seconds=1), nanos, int(offset.total_seconds())


def std_number(text: str) -> float | None:
    """The float64 JSON text denotes (float() rounds correctly), or None past float64's range."""
    value = float(text)
    return value if math.isfinite(value) else None


def std_integer(text: str) -> int | None:
    """The integer JSON text denotes, if it denotes one within int64: an integer literal exactly (int), a
    number with a fraction or an exponent as the float64 it denotes (float), integral (1.0 and 1e2 are:
    JSON Schema counts integral numbers), as Python's json and so jsonschema read it."""
    if not re.search(r"[.eE]", text):
        whole = int(text)
    else:
        value = float(text)
        if not value.is_integer():
            return None
        whole = int(value)
    return whole if -(2**63) <= whole < 2**63 else None


# --- the built packages and the programs that read what they built ----------------------------------


class Encodings:
    def __init__(self, built: conformance.Built, go_extract: Path | None) -> None:
        self.built = built
        self.go_extract = go_extract

    def python(self, texts: list[str]) -> list[dict[str, Any]]:
        done = subprocess.run([sys.executable, "-S", str(HERE / "extract.py")], input=json.dumps(texts), capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(self.built.folder / "python")})
        assert done.returncode == 0, done.stderr[-3000:]
        result: list[dict[str, Any]] = json.loads(done.stdout)
        return result

    def go(self, texts: list[str]) -> list[dict[str, Any]] | None:
        from go_driver import GO_ENV

        if self.go_extract is None:
            return None
        done = subprocess.run([str(self.go_extract)], input=json.dumps(texts), capture_output=True, text=True, env=GO_ENV)
        assert done.returncode == 0, done.stderr[-3000:]
        result: list[dict[str, Any]] = [{**v, "errors": v.get("errors", [])} for v in json.loads(done.stdout)]
        return result

    def typescript(self, texts: list[str]) -> list[dict[str, Any]] | None:
        if self.built.ts_dist is None:
            return None
        done = subprocess.run(["node", str(HERE / "extract.mjs"), str(self.built.ts_dist)], input=json.dumps(texts), capture_output=True,
                              text=True)
        assert done.returncode == 0, done.stderr[-3000:]
        result: list[dict[str, Any]] = json.loads(done.stdout)
        return result


    def built_by_each(self, texts: list[str]) -> list[tuple[str, list[dict[str, Any]]]]:
        """(language, what it built of each text) for each language this machine runs."""
        found = [("Python", self.python(texts)), ("Go", self.go(texts)), ("TypeScript", self.typescript(texts))]
        return [(language, results) for language, results in found if results is not None]


@pytest.fixture(scope="module")
def encodings(tmp_path_factory: pytest.TempPathFactory) -> Encodings:
    from go_driver import GO_ENV, go_available, write_go_mod

    folder = tmp_path_factory.mktemp("encodings")
    files = generate([load_spec(HERE, ROOT, format_id=FORMAT)], targets=["python", "go", "typescript"])
    built = conformance.build(files, [FORMAT], folder / "out")
    go_extract = None
    if go_available():
        work = folder / "extract"
        work.mkdir()
        (work / "main.go").write_text((HERE / "main.go").read_text(encoding="utf-8"), encoding="utf-8")
        write_go_mod(work, "extract", folder / "out" / "go", DEFAULT_GO_MODULE)
        done = subprocess.run(["go", "build", "-o", "extract", "."], cwd=work, capture_output=True, text=True, env=GO_ENV)
        assert done.returncode == 0, done.stderr
        go_extract = work / "extract"
    return Encodings(built, go_extract)


def _spec() -> dict[str, Any]:
    document: dict[str, Any] = json.loads((HERE / "spec.json").read_text(encoding="utf-8"))
    return document


class Policy:
    """jsonschema on the spec as written, and the one refusal of the input policy (README) it cannot make:
    a number no float64 holds (1e400), which Python's json reads as inf and jsonschema takes for a number."""

    def __init__(self) -> None:
        self.oracle = conformance.oracle(_spec())

    def is_valid(self, doc: Any) -> bool:
        numbers = [doc] if isinstance(doc, float) else [x for v in doc.values() for x in (v if isinstance(v, list) else [v])]
        return bool(self.oracle.is_valid(doc)) and all(math.isfinite(x) for x in numbers if isinstance(x, float))


# --- the tests --------------------------------------------------------------------------------------


def test_the_test_decoders_agree_with_jsonschema_on_every_case() -> None:
    # The oracle of the verdicts (jsonschema, its format checker, the exported base64 pattern) and the
    # standard library decoders the built values are compared with must say the same, or the test proves nothing.
    oracle = conformance.oracle(_spec())
    for text in STANDARD + URL_SAFE + MALFORMED:
        assert oracle.is_valid({"blob": text}) == (std_base64(text) is not None), text
    assert all(std_base64(t) is not None for t in STANDARD) and not any(std_base64(t) is not None for t in URL_SAFE + MALFORMED)
    # The URL-safe cases are base64 in the other alphabet, with bytes the standard one spells with + and /.
    for text in URL_SAFE:
        assert set(text) & set("-_") and base64.urlsafe_b64decode(text) != b""
    for text in DATE_TIMES:
        assert oracle.is_valid({"at": text}) == (std_date_time(text) is not None), text
    for text in NUMBERS:
        assert oracle.is_valid(json.loads(f'{{"n": {text}}}')) or std_number(text) is None, text
    for text in INTEGERS:
        valid = oracle.is_valid(json.loads(f'{{"i": {text}}}'))
        assert valid == (std_integer(text) is not None) or (valid and abs(float(text)) >= 2**63), text


def test_every_language_reaches_jsonschemas_verdict_on_every_encoding_edge(encodings: Encodings) -> None:
    cases: list[conformance.Case] = [(FORMAT, text, None) for text in _documents()]
    found = encodings.built.verdicts(cases)
    assert set(found) == encodings.built.languages
    wrong = conformance.disagreements(cases, found, {FORMAT: [("the spec as written and the input policy", Policy())]})
    assert not wrong, f"{len(wrong)} of {len(cases)} cases disagree; the first:\n" + "\n".join(wrong[:10])
    assert any(v["ok"] for v in found["python"]) and any(not v["ok"] for v in found["python"])


def _encoded(built: dict[str, Any], field: str) -> Any:
    value = json.loads(built["encoded"], parse_float=str, parse_int=str)
    return value.get(field)


def _check_bytes(language: str, text: str, built: dict[str, Any], field: str) -> list[str]:
    wanted = std_base64(text)
    if wanted is None:
        return [] if not built["ok"] else [f"{language} accepts {text!r}, which is no standard padded base64"]
    if not built["ok"]:
        return [f"{language} refuses {text!r}: {built['errors']}"]
    got = built[field] if field == "blob" else built[field][1]
    written = _encoded(built, field) if field == "blob" else _encoded(built, field)[1]
    wrong = []
    if got != wanted.hex():
        wrong.append(f"{language} decodes {text!r} to {got}, the standard library to {wanted.hex()}")
    if written != base64.b64encode(wanted).decode():
        wrong.append(f"{language} writes the bytes of {text!r} as {written!r}, the standard library as {base64.b64encode(wanted).decode()!r}")
    return wrong


def test_base64_in_both_alphabets_decodes_to_the_standard_librarys_bytes_and_is_written_back_in_the_standard_one(encodings: Encodings) -> None:
    texts = STANDARD + URL_SAFE + MALFORMED
    docs = [json.dumps({"blob": t}, ensure_ascii=False) for t in texts] + [json.dumps({"blobs": ["QQ==", t]}, ensure_ascii=False) for t in texts]
    wrong = []
    for language, results in encodings.built_by_each(docs):
        for i, text in enumerate(texts):
            wrong += _check_bytes(language, text, results[i], "blob")
            wrong += _check_bytes(language, text, results[len(texts) + i], "blobs")
    assert not wrong, f"{len(wrong)} problems:\n" + "\n".join(wrong[:20])


def _instant_of(written: str) -> tuple[int, int, int] | None:
    return std_date_time(written) if isinstance(written, str) else None


def test_date_times_denote_the_instant_the_standard_library_reads_at_each_languages_precision(encodings: Encodings) -> None:
    docs = [json.dumps({"at": t}, ensure_ascii=False) for t in DATE_TIMES] + [json.dumps({"ats": [DATE_TIMES[0], t]}, ensure_ascii=False) for t in DATE_TIMES]
    # (language, results, what its built value holds of an instant (seconds, nanoseconds, offset) -> comparable)
    holds = {
        "Python": lambda s, n, o: [s, n // 1000 * 1000, o],  # datetime: microseconds, finer digits dropped
        "Go": lambda s, n, o: [s, n, o],  # time.Time: nanoseconds
        "TypeScript": lambda s, n, o: s * 1000 + n // 1_000_000,  # toDate: milliseconds
    }
    wrong = []
    for language, results in encodings.built_by_each(docs):
        for k, text in enumerate(DATE_TIMES):
            for built, field in ((results[k], "at"), (results[len(DATE_TIMES) + k], "ats")):
                wanted = std_date_time(text)
                if wanted is None:
                    if built["ok"]:
                        wrong.append(f"{language} accepts {text!r}, which is no RFC 3339 date-time")
                    continue
                if not built["ok"]:
                    wrong.append(f"{language} refuses {text!r}: {built['errors']}")
                    continue
                got = built[field] if field == "at" else built[field][1]
                if got != holds[language](*wanted):
                    wrong.append(f"{language} reads {text!r} as {got}, the standard library as {holds[language](*wanted)}")
                written = _encoded(built, field) if field == "at" else _encoded(built, field)[1]
                again = _instant_of(written)
                # What it writes back denotes the instant it holds (an offset may be spelled otherwise).
                if again is None or holds[language](*again[:2], wanted[2]) != holds[language](*wanted):
                    wrong.append(f"{language} writes {text!r} back as {written!r}")
    assert not wrong, f"{len(wrong)} problems:\n" + "\n".join(wrong[:20])


def _float_of(text: Any) -> float:
    return float(text)


def test_numbers_are_the_float64_or_integer_the_text_denotes_and_are_written_back_as_the_same_value(encodings: Encodings) -> None:
    docs = [f'{{"n": {t}}}' for t in NUMBERS] + [f'{{"ns": [1, {t}]}}' for t in NUMBERS] + [f'{{"i": {t}}}' for t in INTEGERS]
    wrong = []
    for language, results in encodings.built_by_each(docs):
        for k, text in enumerate(NUMBERS):
            for built, field in ((results[k], "n"), (results[len(NUMBERS) + k], "ns")):
                wanted = std_number(text)
                if wanted is None or not built["ok"]:
                    if (wanted is None) != (not built["ok"]):
                        wrong.append(f"{language} {'accepts' if built['ok'] else 'refuses'} the number {text}")
                    continue
                got = built[field] if field == "n" else built[field][1]
                written = _encoded(built, field) if field == "n" else _encoded(built, field)[1]
                for what, value in (("reads", got), ("writes", written)):
                    value = _float_of(value)
                    if value != wanted:  # by value, as JSON Schema compares numbers: -0 is 0
                        wrong.append(f"{language} {what} the number {text} as {value!r}, the standard library as {wanted!r}")
        for k, text in enumerate(INTEGERS):
            built = results[2 * len(NUMBERS) + k]
            whole = std_integer(text)
            if whole is None or not built["ok"]:
                if (whole is None) != (not built["ok"]):
                    wrong.append(f"{language} {'accepts' if built['ok'] else 'refuses'} the integer {text}")
                continue
            # TypeScript holds integers in a number: past 2^53 it is the nearest float64 (the README says so).
            wanted = str(whole) if language != "TypeScript" or abs(whole) <= 2**53 else repr(float(whole))
            got = built["i"] if language != "TypeScript" or abs(whole) <= 2**53 else repr(float(built["i"]))
            if got != wanted:
                wrong.append(f"{language} reads the integer {text} as {got}, the standard library as {wanted}")
            # Written as the integer it holds, digit for digit (TypeScript's: the float64's exact value).
            held = int(float(whole)) if language == "TypeScript" else whole
            if _encoded(built, "i") != str(held):
                wrong.append(f"{language} writes the integer {text} as {_encoded(built, 'i')}, not {held}")
    assert not wrong, f"{len(wrong)} problems:\n" + "\n".join(wrong[:20])
