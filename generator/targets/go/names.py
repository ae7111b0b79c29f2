"""Names the generated Go defines itself, which the naming policy (target.py) and the package builder (package.py) both read."""

from __future__ import annotations

# Methods every generated type has: a field or variant taking the name gets "Field" appended.
METHOD_NAMES = frozenset({"Validate", "MarshalJSON", "UnmarshalJSON"})
# Package-level type names the templates define; a definition may not take them.
PACKAGE_NAMES = frozenset({"FormatID", "Version", "ValidationError", "ErrorDetail"})
