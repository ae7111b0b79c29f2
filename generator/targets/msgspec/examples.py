"""The msgspec target's check of its files: every example read by the Structs as by the dataclass package.

The two packages import each other by their real names, so they are written to a temporary folder and
run in a child Python (the generator's own process may hold another package of that name). A module
msgspec cannot build (a union of kinds it does not tell apart, ...) or an example whose verdict or
problems differ is refused, naming the file. Remembered per format, by the modules its check runs, as the
Python target's check is (generator/example_keys.py), so after an edit only the edited format's examples run.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from generator import cache, ir
from generator.errors import SpecError, raise_all
from generator.example_keys import check_keys, imported_modules, package_modules

# Run in the child: argv[1] the folder holding both packages, argv[2] the msgspec package; stdin the
# examples as JSON {format: [[file, text], ...]}; stdout one JSON list of [format, file, problem].
_CHILD = r"""
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
package = sys.argv[2]
found = []
for fmt, examples in json.load(sys.stdin).items():
    try:
        fast = importlib.import_module(f"{package}_msgspec.{fmt}")
        exact = importlib.import_module(f"{package}.{fmt}")
        read, check = getattr(fast, f"parse_{fmt}_from_json"), getattr(exact, f"parse_{fmt}_from_json")
    except Exception as exc:
        found.append([fmt, None, f"{type(exc).__name__}: {exc}"])
        continue
    for shown, text in examples:
        verdicts = []
        for parse in (read, check):
            try:
                parse(text)
                verdicts.append("accepted")
            except exact.ValidationError as exc:
                verdicts.append([[e.path, e.message] for e in exc.errors])
            except Exception as exc:
                verdicts.append(f"{type(exc).__name__}: {exc}")
        if verdicts[0] != verdicts[1]:
            found.append([fmt, shown, f"the msgspec package gives {verdicts[0]!r} where the dataclass package gives {verdicts[1]!r}"])
print(json.dumps(found))
"""


def check_msgspec_examples(formats: list[ir.Format], files: Mapping[str, str], package: str) -> None:
    bases = (f"python/{package}/", f"msgspec/{package}_msgspec/")
    if f"{bases[0]}_runtime.py" not in files:
        return  # a run of this target alone (tests): the examples run where both packages are made, as `generate` makes them
    ours = {path: text for path, text in sorted(files.items()) if path.startswith(bases)}
    keys = {fmt.id: _keys(fmt, files, package) for fmt in formats} if cache.current() is not None else {}
    formats = [fmt for fmt in formats if not any(cache.load("msgspec-examples", key) is not None for key in keys.get(fmt.id, ()))]
    if not formats:
        return
    if importlib.util.find_spec("msgspec") is None:
        raise SpecError(
            "pyproject.toml",
            None,
            "[tool.chatspec] msgspec = true, but msgspec is not installed beside chatspec (each example is read by the package it makes)",
            "pip install 'chatspec[msgspec]' (msgspec 0.22.0, the version its verdicts are tested on), or leave out msgspec = true",
        )
    examples = {fmt.id: [[shown, json.dumps(data)] for shown, data in _examples(fmt)] for fmt in formats}
    with tempfile.TemporaryDirectory(prefix="chatspec-msgspec-") as folder:
        for path, text in ours.items():
            target = Path(folder, path.split("/", 1)[1])
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        run = subprocess.run(
            [sys.executable, "-I", "-c", _CHILD, folder, package], input=json.dumps(examples), capture_output=True, text=True, check=False
        )
    if run.returncode != 0:
        raise SpecError(
            bases[1], None, f"the msgspec package's check did not run: {run.stderr.strip()[-2000:]}", "this is a chatspec bug: report it"
        )
    by_id = {fmt.id: fmt for fmt in formats}
    problems = [
        SpecError(
            shown if shown is not None else by_id[fmt].source,
            "/" if shown is not None else None,
            problem if shown is not None else f"the msgspec package cannot build {fmt}: {problem}",
            (
                "this is a chatspec bug, not a spec mistake: report it with the file named here"
                if shown is not None
                else "leave out `msgspec = true` under [tool.chatspec] in pyproject.toml"
            ),
        )
        for fmt, shown, problem in json.loads(run.stdout)
    ]
    raise_all(problems)
    for fmt in formats:
        for key in keys.get(fmt.id, ()):
            cache.store("msgspec-examples", key, True)


def _keys(fmt: ir.Format, files: Mapping[str, str], package: str) -> tuple[str, ...]:
    """What the check of one format's examples reads: the format, and every module importing its Struct
    module runs, in both packages (the __init__ files' own text left out unless read, as the Python target's
    check leaves it: beyond their imports they hold every format's version)."""
    fast, exact = package_modules(files, f"{package}_msgspec", "msgspec"), package_modules(files, package)
    ran = imported_modules(fmt.id, fast, f"{package}_msgspec")
    exact_ran = imported_modules("", exact, package, importers=[fast[m] for m in [*ran, "__init__"] if m in fast])
    return check_keys(
        "msgspec-examples", package, fmt, {**{f"msgspec/{m}": fast[m] for m in ran}, **{f"python/{m}": exact[m] for m in exact_ran}}
    )


def _examples(fmt: ir.Format) -> list[tuple[str, object]]:
    folder = fmt.source.rsplit("/", 1)[0]
    return [(f"{folder}/examples/valid/{name}.json", data) for name, data in fmt.valid_examples] + [
        (f"{folder}/examples/invalid/{case.name}.json", case.data) for case in fmt.invalid_examples
    ]
