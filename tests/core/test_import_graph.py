"""The layers of the package, read from its source with :mod:`ast`: no
cycle among the imports made when a module loads, and the declared layers
kept by every import, those inside functions included (they run later, but
they still tie one layer to another).

The checker also runs on small synthetic packages in ``tmp_path`` with a
violation planted, so that a checker that sees nothing fails a test."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

import pytest

import draughts

PACKAGE = Path(draughts.__file__).resolve().parent

BOTH_BACKENDS = False  # source only: no backend involved


class Imports(NamedTuple):
    """The ``draughts`` modules one module imports."""

    at_load: set[str]
    """Imported when the module loads (at module level, in ``try`` or
    ``if`` blocks too; not under ``if TYPE_CHECKING``)."""
    later: set[str]
    """Imported inside a function or class body, when it runs."""
    typing_only: set[str]
    """Imported under ``if TYPE_CHECKING`` (for mypy only)."""


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _targets(node: ast.Import | ast.ImportFrom, name: str, is_package: bool) -> list[str]:
    """The modules an import statement names; ``from package import name``
    names the submodule ``name`` as well as the package (the checker keeps
    whichever exists). Relative imports are resolved against ``name``."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = name.split(".") if is_package else name.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, *([base] if base else [])])
    return [base, *(f"{base}.{alias.name}" for alias in node.names)]


def read_imports(path: Path, name: str, modules: set[str]) -> Imports:
    """Every import of the module at ``path`` (named ``name``), sorted by
    when it runs, restricted to ``modules``."""
    found = Imports(set(), set(), set())
    is_package = path.name == "__init__.py"

    def visit(node: ast.AST, where: set[str]) -> None:
        if isinstance(node, ast.Import):
            where.update(t for t in _targets(node, name, is_package) if t in modules)
            return
        if isinstance(node, ast.ImportFrom):
            base, *names = _targets(node, name, is_package)
            # `from package import name`: the submodule where there is one.
            submodules = {t for t in names if t in modules}
            where.update(submodules or ({base} & modules))
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(node, ast.If) and _is_type_checking(node.test) and child in node.body:
                visit(child, found.typing_only)
            elif (
                isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
                or where is found.later
            ):
                visit(child, found.later)
            else:
                visit(child, where)

    visit(ast.parse(path.read_text(encoding="utf-8")), found.at_load)
    for kind in found:
        kind.discard(name)
    return found


def imports_of(root: Path) -> dict[str, Imports]:
    """Every module of the package at ``root`` with its imports."""
    paths = {_module_name(p, root): p for p in root.rglob("*.py")}
    modules = set(paths)
    return {name: read_imports(path, name, modules) for name, path in paths.items()}


# -- The declared layers ----------------------------------------------------------

CORE_MAY_IMPORT = {"draughts.move", "draughts._options"}
"""What ``draughts._core`` may import from outside itself: the plain values."""
ENTRY_POINTS = {"draughts.__main__"}
"""The only modules outside ``draughts._cli`` that may import it."""


def _inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def layer_violations(graph: dict[str, Imports], top: str = "draughts") -> list[str]:
    """One line per import that breaks a declared layer, whenever it runs
    (imports for mypy only aside):

    - nothing in the library imports ``_cli`` (the command line) but the
      package's ``__main__``;
    - ``_core`` (the layer a compiled backend replaces) imports nothing of
      the layers above it: only itself and :data:`CORE_MAY_IMPORT`.
    """
    cli, core = f"{top}._cli", f"{top}._core"
    allowed = {m.replace("draughts", top, 1) for m in CORE_MAY_IMPORT}
    entry = {m.replace("draughts", top, 1) for m in ENTRY_POINTS}
    problems = []
    for name, found in sorted(graph.items()):
        runs = found.at_load | found.later
        if not _inside(name, cli) and name not in entry:
            problems += [f"{name} imports {m}" for m in sorted(runs) if _inside(m, cli)]
        if _inside(name, core):
            outside = {m for m in runs if not _inside(m, core)} - allowed
            problems += [f"{name} imports {m}, above the core" for m in sorted(outside)]
    return problems


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


# -- The package ------------------------------------------------------------------


@pytest.fixture(scope="module")
def package_graph() -> dict[str, Imports]:
    """The package's imports, read once for the tests below (0.6 s of CPU
    time a reading)."""
    return imports_of(PACKAGE)


def test_no_import_cycle(package_graph: dict[str, Imports]) -> None:
    graph = {name: found.at_load for name, found in package_graph.items()}
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_package_keeps_its_layers(package_graph: dict[str, Imports]) -> None:
    assert layer_violations(package_graph) == []


def test_the_reader_sees_the_package_imports_it_should(
    package_graph: dict[str, Imports],
) -> None:
    """A few imports known to be there, one of each kind, so that a reader
    that finds nothing fails here."""
    graph = package_graph
    assert "draughts._cli.main" in graph["draughts.__main__"].at_load
    assert "draughts._core.native" in graph["draughts._core"].at_load  # in try:
    assert "draughts.variant" in graph["draughts._core"].typing_only
    assert "draughts._core.native" not in graph["draughts._core.pure"].at_load


# -- The checker on planted violations ----------------------------------------------


def _tree(root: Path, files: dict[str, str]) -> Path:
    """A synthetic package ``draughts`` under ``root``, from relative paths."""
    for relative, text in files.items():
        path = root / "draughts" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "draughts"


CLEAN = {
    "__init__.py": "from draughts.board import Board\n",
    "__main__.py": "from draughts._cli import main\n",
    "move.py": "",
    "board.py": "from draughts import _core\nfrom draughts.move import Move\n",
    "_core/__init__.py": (
        "from typing import TYPE_CHECKING\nfrom draughts._core import pure\n"
        "if TYPE_CHECKING:\n    from draughts.board import Board\n"
    ),
    "_core/pure.py": "from . import raw\nfrom ..move import Move\n",
    "_core/raw.py": "",
    "_cli/__init__.py": "from draughts._cli.main import main\n",
    "_cli/main.py": "import draughts.board\n",
}


def test_a_clean_synthetic_package_passes(tmp_path: Path) -> None:
    graph = imports_of(_tree(tmp_path, CLEAN))
    assert layer_violations(graph) == []
    assert graph["draughts._core.pure"].at_load == {"draughts._core.raw", "draughts.move"}


@pytest.mark.parametrize(
    ("path", "text", "wanted"),
    [
        (
            "board.py",
            "def run():\n    from draughts._cli import main\n",
            "draughts.board imports draughts._cli.main",
        ),
        (
            "move.py",
            "class Move:\n    def show(self):\n        import draughts._cli.main\n",
            "draughts.move imports draughts._cli.main",
        ),
        (
            "_core/raw.py",
            "def apply():\n    from draughts import board\n",
            "draughts._core.raw imports draughts.board, above the core",
        ),
        (
            "_core/raw.py",
            "try:\n    from ..board import Board\nexcept ImportError:\n    pass\n",
            "draughts._core.raw imports draughts.board, above the core",
        ),
        (
            "_core/raw.py",
            "f = lambda: __import__('x')\nimport draughts._cli\n",
            "draughts._core.raw imports draughts._cli",
        ),
    ],
)
def test_the_checker_finds_a_planted_violation(
    tmp_path: Path, path: str, text: str, wanted: str
) -> None:
    graph = imports_of(_tree(tmp_path, {**CLEAN, path: text}))
    assert wanted in layer_violations(graph)


def test_the_checker_finds_a_planted_cycle(tmp_path: Path) -> None:
    files = {**CLEAN, "move.py": "import draughts.board\n"}
    graph = {name: found.at_load for name, found in imports_of(_tree(tmp_path, files)).items()}
    cycle = _cycle(graph)
    assert cycle is not None
    assert cycle[0] == cycle[-1] == "draughts.board"
    assert "draughts.move" in cycle
    assert _cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_an_import_inside_a_function_is_no_cycle(tmp_path: Path) -> None:
    files = {**CLEAN, "move.py": "def board():\n    import draughts.board\n"}
    found = imports_of(_tree(tmp_path, files))
    assert found["draughts.move"].later == {"draughts.board"}
    assert _cycle({name: f.at_load for name, f in found.items()}) is None
