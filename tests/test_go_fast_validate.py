"""Validate's fast path on built Go structs never passes what the exact walk rejects.

Every valid example of every format is parsed, then mutated one place at a time by
reflection (empty and long strings, out-of-range and non-finite numbers, nil pointers,
nil and empty slices and maps, zero and far-off times, cleared interface values); for
each mutant the package-internal test compares the typed fast check (fastValid) with
the exact walk (toTree, then the root's parser) and Validate's error with the exact one.
The test runs in a copy of generated/go, so nothing in the repository changes.
Skipped, loudly, without Go (see conftest).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT
from go_driver import GO_ENV, go_available
from generator.naming import go_name
from generator.naming import go_package as package_name

pytestmark = pytest.mark.skipif(not go_available(), reason="Go is not installed: the Go fast-path checks did not run")

_TEST = """package {pkg}

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"{module}/internal/rt"
)

var zzExamples = []string{{{examples}}}

var zzTimeType = reflect.TypeOf(time.Time{{}})

// zzMutator changes the target-th mutable place it meets, in a fixed walk order.
type zzMutator struct {{
	target, seen int
	hit          string
	texts        []string // strings met in the example: swapping them in tries other enum values and non-members
}}

// zzTexts collects the distinct strings of a value (at most 24).
func zzTexts(v reflect.Value, seen map[string]bool, out *[]string, depth int) {{
	if depth > 16 || len(*out) >= 24 {{
		return
	}}
	switch v.Kind() {{
	case reflect.String:
		if !seen[v.String()] {{
			seen[v.String()] = true
			*out = append(*out, v.String())
		}}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {{
			if v.Type().Field(i).IsExported() {{
				zzTexts(v.Field(i), seen, out, depth+1)
			}}
		}}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {{
			zzTexts(v.Elem(), seen, out, depth+1)
		}}
	case reflect.Slice:
		if v.Type().Elem().Kind() != reflect.Uint8 {{
			for i := 0; i < v.Len(); i++ {{
				zzTexts(v.Index(i), seen, out, depth+1)
			}}
		}}
	}}
}}

func (mu *zzMutator) site(name string, variants int, set func(k int)) {{
	for k := 0; k < variants; k++ {{
		if mu.hit == "" && mu.seen == mu.target {{
			set(k)
			mu.hit = name
		}}
		mu.seen++
	}}
}}

func (mu *zzMutator) walk(v reflect.Value, at string, depth int) {{
	if mu.hit != "" || depth > 16 {{
		return
	}}
	switch v.Kind() {{
	case reflect.Struct:
		if v.Type() == zzTimeType {{
			times := []time.Time{{{{}}, time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
				time.Date(2024, 1, 1, 0, 0, 0, 0, time.FixedZone("", 25*3600))}}
			mu.site(at, len(times), func(k int) {{ v.Set(reflect.ValueOf(times[k])) }})
			return
		}}
		for i := 0; i < v.NumField(); i++ {{
			if v.Type().Field(i).IsExported() {{
				mu.walk(v.Field(i), at+"."+v.Type().Field(i).Name, depth+1)
			}}
		}}
	case reflect.Pointer:
		mu.site(at+"=nil", 1, func(int) {{ v.Set(reflect.Zero(v.Type())) }})
		if !v.IsNil() {{
			mu.walk(v.Elem(), at, depth+1)
		}}
	case reflect.Slice:
		mu.site(at+"=nil|empty", 2, func(k int) {{
			if k == 0 {{
				v.Set(reflect.Zero(v.Type()))
			}} else {{
				v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			}}
		}})
		if v.Type().Elem().Kind() != reflect.Uint8 {{
			for i := 0; i < v.Len(); i++ {{
				mu.walk(v.Index(i), at+"[]", depth+1)
			}}
		}}
	case reflect.Map:
		mu.site(at+"=nil|empty|zero value", 3, func(k int) {{
			switch {{
			case k == 0:
				v.Set(reflect.Zero(v.Type()))
			case k == 1:
				v.Set(reflect.MakeMap(v.Type()))
			case !v.IsNil():
				v.SetMapIndex(reflect.ValueOf("zz-added").Convert(v.Type().Key()), reflect.Zero(v.Type().Elem()))
			}}
		}})
	case reflect.String:
		values := append([]string{{"", "x", "not a value of any enum", strings.Repeat("é", 300), "a\\u0000b"}}, mu.texts...)
		mu.site(at, len(values), func(k int) {{ v.SetString(values[k]) }})
	case reflect.Int, reflect.Int64, reflect.Int32:
		values := []int64{{-1, 0, 1 << 40, math.MinInt64, math.MaxInt64}}
		mu.site(at, len(values), func(k int) {{ v.SetInt(values[k]) }})
	case reflect.Float64, reflect.Float32:
		values := []float64{{math.NaN(), math.Inf(1), math.Inf(-1), -1e300, 0, 1e300, 0.5}}
		mu.site(at, len(values), func(k int) {{ v.SetFloat(values[k]) }})
	case reflect.Bool:
		mu.site(at, 1, func(int) {{ v.SetBool(!v.Bool()) }})
	case reflect.Interface:
		values := []any{{nil, math.NaN(), "x", []any{{}}, map[string]any{{}}, struct{{}}{{}}}}
		mu.site(at, len(values), func(k int) {{
			if values[k] == nil {{
				v.Set(reflect.Zero(v.Type()))
			}} else {{
				v.Set(reflect.ValueOf(values[k]))
			}}
		}})
	}}
}}

func TestZZFastValidateNeverPassesWhatTheExactWalkRejects(t *testing.T) {{
	mutants, fastPassed, rejected := 0, 0, 0
	for e, example := range zzExamples {{
		for target := 0; ; target++ {{
			doc, err := {parse}([]byte(example))
			if err != nil {{
				t.Fatalf("example %d does not parse: %v", e, err)
			}}
			var texts []string
			zzTexts(reflect.ValueOf(doc).Elem(), map[string]bool{{}}, &texts, 0)
			mu := &zzMutator{{target: target, texts: texts}}
			mu.walk(reflect.ValueOf(doc).Elem(), "{root}", 0)
			if mu.hit == "" {{
				break
			}}
			mutants++
			fast := doc.fastValid(0)
			exact := rt.Check[{root}](doc.toTree(), parse{root})
			if fast {{
				fastPassed++
			}}
			if exact != nil {{
				rejected++
			}}
			if fast && exact != nil {{
				t.Errorf("example %d, %s (variant %d): the fast path passed what the exact walk rejects: %v", e, mu.hit, target, exact)
			}}
			got := doc.Validate()
			if (got == nil) != (exact == nil) || (got != nil && got.Error() != exact.Error()) {{
				t.Errorf("example %d, %s: Validate said %v, the exact walk %v", e, mu.hit, got, exact)
			}}
		}}
	}}
	t.Logf("ZZ mutants=%d fast_passed=%d rejected=%d", mutants, fastPassed, rejected)
	if mutants == 0 || rejected == 0 {{
		t.Fatalf("the mutations proved nothing: %d mutants, %d rejected", mutants, rejected)
	}}
}}
"""


def _formats() -> dict[str, Path]:
    """Format id -> its spec folder (specs/<format>/)."""
    return {d.name: d for d in sorted((ROOT / "specs").iterdir()) if (d / "spec.json").is_file()}


def _root(package_dir: Path, format_id: str) -> str:
    text = "".join(p.read_text(encoding="utf-8") for p in sorted(package_dir.glob("*.go")))
    found = re.search(rf"^func Parse{go_name(format_id)}FromJSON\(data \[\]byte\) \(\*(\w+), error\)", text, re.M)
    assert found, f"{package_dir}: no Parse{go_name(format_id)}FromJSON"
    return found.group(1)


def test_validate_fast_path_never_passes_a_mutated_struct_the_exact_walk_rejects(tmp_path: Path) -> None:
    tree = tmp_path / "go"
    shutil.copytree(ROOT / "generated" / "go", tree)
    module = re.search(r"^module (\S+)", (tree / "go.mod").read_text(encoding="utf-8"), re.M)
    assert module
    for format_id, folder in _formats().items():
        pkg = package_name(format_id)
        examples = [p.read_text(encoding="utf-8") for p in sorted((folder / "examples" / "valid").glob("*.json"))]
        assert examples, f"{folder}: no valid examples"
        root = _root(tree / pkg, format_id)
        (tree / pkg / "zz_fast_test.go").write_text(_TEST.format(
            pkg=pkg, module=module.group(1), root=root, parse=f"Parse{go_name(format_id)}FromJSON",
            examples=", ".join(json.dumps(e) for e in examples)), encoding="utf-8")
    done = subprocess.run(["go", "test", "-count=1", "-run", "TestZZFast", "-v", "./..."], cwd=tree, capture_output=True,
                          text=True, env=GO_ENV, timeout=600)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    counts = re.findall(r"ZZ mutants=(\d+) fast_passed=(\d+) rejected=(\d+)", done.stdout)
    assert len(counts) == len(_formats()), done.stdout[-3000:]
    # The fast path must also pass something (else it would be no faster), at least for one format.
    assert any(int(passed) > 0 for _, passed, _ in counts), counts
