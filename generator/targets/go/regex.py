"""Spec patterns in Go's RE2 syntax, with the meaning Python's `re` gives them (generator/patterns.py)."""

from __future__ import annotations

from generator.patterns import SPECIALS, Chars, emit, parse, pattern_char, range_item

# Python's \s on str (generator.patterns.SPACE_RANGES), spelled for RE2.
_GO_SPACE = r"\t\n\v\f\r\x1c-\x1f \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}"


def _go_char(code: int, in_class: bool) -> str:
    return pattern_char(code, "\\]^-[" if in_class else SPECIALS, code < 0x20 or code == 0x7F)


def _go_item(item: tuple[str, object], in_class: bool) -> str:
    kind, value = item
    if kind == "range":
        return range_item(value, in_class, _go_char)
    if kind == "dot":
        return "."
    if value in ("d", "w", "D", "W"):
        # Kept as written: rt.Pattern spells them out as the pinned ranges (RE2 reads them as ASCII only).
        return f"\\{value}"
    if value == "s":
        return _GO_SPACE if in_class else f"[{_GO_SPACE}]"
    return f"[^{_GO_SPACE}]"  # \S: the parser refuses it inside a class


def _go_chars(node: Chars) -> str:
    if not node.bracketed:
        return _go_item(node.items[0], in_class=False)
    return "[" + ("^" if node.negated else "") + "".join(_go_item(i, in_class=True) for i in node.items) + "]"


def to_go(text: str) -> str:
    """The pattern in Go's RE2 syntax with the meaning chatspec gives the spec pattern (generator/patterns.py), for
    rt.Pattern (which spells \\d \\w \\D \\W out as the ranges pinned to Unicode 14.0)."""
    # `$` is the end of the text (ECMA-262's, without the m flag); it only ever ends a top-level branch.
    return emit(parse(text).alternatives, _go_chars, r"\z")
