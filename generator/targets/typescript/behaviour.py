"""A format's stored typescript.ts (generator/behaviour.py), split into what the generated module places."""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.behaviour import Behaviour
from generator.errors import SpecError


@dataclass(frozen=True)
class TypeScriptParts:
    imports: list[str]  # imports of the package's other modules, kept as written, e.g. ['import * as v1 from "./droidlet_chat_v1.js";']
    code: str  # the rest of the file, placed at the end of the generated module


# An import statement of the package's own modules, with the comments and blank lines before it.
_TS_IMPORT_RE = re.compile(r'(?:[ \t]*(?://[^\n]*)?\n)*import\s[^;]*?\sfrom\s+"(\./[A-Za-z0-9_]+\.js)";[ \t]*(?:\n|$)', re.S)


def typescript_parts(b: Behaviour) -> TypeScriptParts:
    """typescript.ts split up: the file is real TypeScript beside the generated package, so it
    imports what it uses from "./<format>.js" (its own module: dropped, the code lands in it)
    and "./runtime.js" (only as `import * as rt from "./runtime.js"`, which the module has);
    imports of the package's other modules are kept. Imports come first (comments above
    them go with them); the rest is code."""
    text = b.texts["typescript"]
    shown = b.sources["typescript"]
    own = f"./{b.format_id}.js"
    imports: list[str] = []
    rest = text
    while (match := _TS_IMPORT_RE.match(rest)) is not None:
        statement = re.sub(r"\s+", " ", match.group(0)[match.group(0).index("import") :].strip())
        target = match.group(1)
        if target == "./runtime.js":
            if statement != 'import * as rt from "./runtime.js";':
                raise SpecError(
                    shown,
                    None,
                    f"imports the runtime as {statement!r}",
                    'write `import * as rt from "./runtime.js";` (the module imports it so) and use rt.<name>',
                )
        elif target != own:
            imports.append(statement)
        rest = rest[match.end() :]
    code = rest.strip("\n")
    for m in re.finditer(r"^\s*import\s", code, re.M):
        line = code[: m.start()].count("\n") + 1
        raise SpecError(shown, None, f"an import after other code (line {line} of the code)", "move every import to the top of the file")
    if not code.strip():
        raise SpecError(shown, None, "holds no code besides its imports", f"write the behaviour or take typescript out of {b.manifest}")
    return TypeScriptParts(imports, re.sub(r"\n{3,}", "\n\n", code) + "\n")
