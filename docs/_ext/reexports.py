"""Cross-references to names the package re-exports (``draughts.Variant``,
``draughts.Termination``) resolve to where the API reference documents them
(``draughts.variant.Variant``, ``draughts.outcome.Termination``).

A reference Sphinx cannot find is looked up by importing it: if the object
it names has another home (its ``__module__`` and ``__qualname__``, or for
a module its ``__name__``) that is documented, the reference points there.
Anything else stays missing, so ``nitpicky`` still reports it.
"""

from __future__ import annotations

import importlib
from typing import Any

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment


def _home(target: str) -> str | None:
    """Where the object ``target`` (a dotted name) is defined, if that is
    elsewhere: the home of the longest leading part that is a class or a
    function, followed by the rest (an attribute of a re-exported class)."""
    if not target.startswith("draughts."):
        return None
    parts = target.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        rest = parts[cut:]
        for index, name in enumerate(rest):
            try:
                found = getattr(found, name)
            except AttributeError:
                return None
            module = getattr(found, "__module__", None)
            qualname = getattr(found, "__qualname__", None)
            if isinstance(module, str) and isinstance(qualname, str):
                home = ".".join([module, qualname, *rest[index + 1 :]])
                return home if home != target else None
        return None
    return None


def _resolve(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.TextElement
) -> nodes.reference | None:
    if node.get("refdomain") != "py":
        return None
    home = _home(node["reftarget"])
    if home is None:
        return None
    domain = env.get_domain("py")
    node = node.deepcopy()
    node["reftarget"] = home
    return domain.resolve_xref(
        env, node.get("refdoc", ""), app.builder, node["reftype"], home, node, contnode
    )


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("missing-reference", _resolve)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
