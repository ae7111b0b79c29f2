"""retire: stop generating an earlier major kept beside the latest (`chatspec retire <format> <major>`).

When a format moves to a new major, the last release of every earlier major keeps being generated
beside it (<format>_v<N>), so consumers migrate at their own pace. Once they have, retiring the
major records it in the lock (history/lock.json, "retired": the major and its last release), and
generate, vendor and the docs leave it out. Its releases stay in the lock and its snapshots in
history/ (the changelog and `chatspec diff --against` still read them).

A command that writes the lock, not an x- keyword in the spec: which majors are kept is a fact of
the release history, like the releases themselves, not of what the format says. A keyword would be
part of the spec's content, so retiring would change the latest release's hash and need a bump of a
format whose messages did not change, and every kept snapshot would carry a keyword about others.
"""

from __future__ import annotations

import re
from pathlib import Path

from generator.errors import SpecError
from generator.history import earlier_majors, last_release_of, lock_path, major_of, read_lock, read_retired, write_lock
from generator.load import LoadedSpec, load_spec
from generator.naming import go_package
from generator.write import staged


def retire_major(spec_dir: Path, root: Path, major: int) -> str:
    """Record the earlier major as retired in the lock; returns its last release (e.g. "1.0.0")."""
    spec = load_spec(spec_dir, root)
    fid = spec.format_id
    shown = lock_path(spec_dir).relative_to(root).as_posix()
    releases, retired = read_lock(spec_dir), read_retired(spec_dir)
    if not releases:
        raise SpecError(
            shown, None, f"{fid} has no locked release", f"lock one first: run `chatspec bump {fid}` (or `make bump FORMAT={fid}`)"
        )
    latest = major_of(releases[-1].version)
    kept = ", ".join(f"{major_of(r.version)} ({fid}_v{major_of(r.version)}, last release {r.version})" for r in earlier_majors(spec_dir))
    choose = f"the majors kept beside {latest}.x: {kept}" if kept else f"no earlier major of {fid} is kept beside {latest}.x"
    if major == latest:
        raise SpecError(
            shown, None, f"{major}.x is the latest major of {fid}: it is what {fid} generates", f"retire an earlier major; {choose}"
        )
    last = last_release_of(releases, major)
    if last is None or major > latest:
        raise SpecError(shown, None, f"{fid} has no release of major {major}", f"retire an earlier major; {choose}")
    if major in retired:
        raise SpecError(shown, None, f"{major}.x of {fid} is retired already (its last release {last})", f"nothing to do; {choose}")
    check_unused(spec, spec_dir, major)
    with staged(spec_dir) as stage:
        write_lock(spec_dir, stage, releases, {**retired, major: last})
    return last


def check_retired(spec: LoadedSpec, spec_dir: Path) -> None:
    """Refuse behaviour code of a generated major that uses a retired one (its package is not generated)."""
    for major in read_retired(spec_dir):
        check_unused(spec, spec_dir, major)


def check_unused(spec: LoadedSpec, spec_dir: Path, major: int) -> None:
    """Refuse retiring a major that the behaviour of a major still generated uses (droidlet_chat's
    upgrade_from_v1 imports droidlet_chat_v1): its Python module, Go package or TypeScript module."""
    fid = spec.format_id
    names = (f"{fid}_v{major}", f"{go_package(fid)}v{major}")
    used = re.compile(r"\b(?:" + "|".join(map(re.escape, names)) + r")\b")
    retired = set(read_retired(spec_dir)) | {major}
    generated = [m for m in {major_of(r.version) for r in read_lock(spec_dir)} if m not in retired]
    for b in spec.behaviours:
        if not any(b.applies_to(m) for m in generated):
            continue
        for language, text in b.texts.items():
            for number, line in enumerate(text.splitlines(), 1):
                found = used.search(line)
                if found is not None:
                    raise SpecError(
                        b.sources.get(language, b.manifest),
                        None,
                        f"the behaviour uses {found.group()}, the {major}.x package of {fid}, which retiring {major}.x stops generating",
                        f"change the behaviour so it no longer reads {major}.x (e.g. remove its upgrade code), then retire {major}.x",
                        line=number,
                        column=found.start() + 1,
                    )
