"""examples: a spec's valid examples and its defaults must satisfy the spec itself.

Checked with the reference validator on the exported schema, so a typo in an
example or a default is a spec error at generation time, not a surprise in
the docs or in generated code.
"""

from __future__ import annotations

import json
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from generator import ir
from generator.errors import SpecError, pointer_of
from generator.load import LoadedSpec
from generator.targets.jsonschema import strip


def check_examples(spec: LoadedSpec, fmt: ir.Format, exported: dict[str, Any]) -> None:
    validator = Draft202012Validator(exported, format_checker=Draft202012Validator.FORMAT_CHECKER)
    folder = spec.path.rsplit("/", 1)[0]
    for name, data in spec.examples_valid:
        error = best_match(validator.iter_errors(data))
        if error is not None:
            raise SpecError(f"{folder}/examples/valid/{name}.json", pointer_of(*error.absolute_path),
                            f"this valid example fails its own spec: {error.message}",
                            "fix the example, or move it to examples/invalid with its expected errors")
    for name, schema in spec.document["$defs"].items():
        for key, prop in schema.get("properties", {}).items():
            if "default" not in prop:
                continue
            field_schema = dict(strip(prop, spec.document), **{"$defs": exported["$defs"]})
            field_schema.pop("default", None)
            error = best_match(Draft202012Validator(field_schema, format_checker=Draft202012Validator.FORMAT_CHECKER).iter_errors(prop["default"]))
            if error is not None:
                raise SpecError(spec.path, pointer_of("$defs", name, "properties", key, "default"),
                                f"the default {json.dumps(prop['default'])} fails the field's own schema: {error.message}",
                                "change the default so the field accepts it")
