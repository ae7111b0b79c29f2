"""The TypeScript target (see target.py)."""

from generator.targets.typescript.target import TARGET, TypeScriptTarget, render_package

__all__ = ["TARGET", "TypeScriptTarget", "render_package"]
