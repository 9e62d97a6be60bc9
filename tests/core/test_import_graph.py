"""The layers of the package, read from its source with :mod:`ast`: no
cycle among the top-level imports of ``draughts`` modules, and the core
imports nothing of the layers above it."""

from __future__ import annotations

import ast
from pathlib import Path

import draughts

PACKAGE = Path(draughts.__file__).resolve().parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _top_level_imports(path: Path, modules: set[str]) -> set[str]:
    """The ``draughts`` modules that ``path`` imports when it is loaded: its
    module-level imports, not those inside functions or ``TYPE_CHECKING``.
    ``from package import name`` depends on the submodule ``name`` when
    there is one, else on the package itself."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                found.add(submodule if submodule in modules else node.module)
    return {name for name in found if name in modules}


def _graph() -> dict[str, set[str]]:
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(paths)
    return {name: _top_level_imports(path, modules) - {name} for name, path in paths.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph``, or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    for root in sorted(graph):
        if state.get(root):
            continue
        path = [root]
        stack = [iter(sorted(graph[root]))]
        state[root] = 1
        while stack:
            child = next(stack[-1], None)
            if child is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(child) == 1:
                return [*path[path.index(child) :], child]
            elif not state.get(child):
                state[child] = 1
                path.append(child)
                stack.append(iter(sorted(graph[child])))
    return None


def test_no_import_cycle() -> None:
    cycle = _cycle(_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_the_core_imports_nothing_above_it() -> None:
    """``draughts._core`` is the layer a compiled backend replaces: it may use
    the plain value types (moves, rule options) and nothing of the board,
    PDN or engine layers."""
    allowed = {"draughts.move", "draughts._options"}
    for name, imports in _graph().items():
        if name.startswith("draughts._core"):
            outside = {m for m in imports if not m.startswith("draughts._core")} - allowed
            assert not outside, f"{name} imports {sorted(outside)}"
