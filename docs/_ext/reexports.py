"""Cross-references to names the package re-exports (``draughts.Variant``,
``draughts.Termination``) resolve to where the API reference documents them
(``draughts.variant.Variant``, ``draughts.outcome.Termination``).

A reference Sphinx cannot find is looked up by importing it: if the object
it names has another home (its ``__module__`` and ``__qualname__``, or for
a module its ``__name__``) that is documented, the reference points there.

A short name (``:func:`load_openings``` in the docstring of
``draughts.engine.match``) means what it means where the docstring was
written, as in Python: an attribute of the documented class or one of its
bases, else a name of the module that defines the documented object, else
of the module the page documents. Each such reading is looked up as above,
and also under the packages above its module that re-export the same object
(``draughts.ml.encode`` for ``draughts.ml.encoding.encode``). Anything else
stays missing, so ``nitpicky`` still reports it.
"""

from __future__ import annotations

import importlib
from typing import Any

from docutils import nodes
from sphinx import addnodes
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


def _lookup(dotted: str) -> Any:
    """The object a dotted name names, or None."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            found = getattr(found, name, None)
        return found
    return None


def _documented_object(node: pending_xref) -> Any:
    """The object whose description (a docstring) holds the reference, or None."""
    parent = node.parent
    while parent is not None and not isinstance(parent, addnodes.desc):
        parent = parent.parent
    if parent is None:
        return None
    for signature in parent.findall(addnodes.desc_signature):
        module, fullname = signature.get("module"), signature.get("fullname")
        if module and fullname:
            return _lookup(f"{module}.{fullname}")
    return None


def _readings(node: pending_xref) -> list[str]:
    """The full names a short reference may mean where it was written."""
    target = node["reftarget"]
    module = node.get("py:module") or ""
    if target.startswith("draughts.") or not module.startswith("draughts"):
        return []
    names: list[str] = []
    owner = _documented_object(node)
    klass = _lookup(f"{module}.{node['py:class']}") if node.get("py:class") else None
    if isinstance(owner, type):
        klass = owner
    bases = [b for b in getattr(klass, "__mro__", ()) if b.__module__.startswith("draughts")]
    names.extend(f"{base.__module__}.{base.__qualname__}.{target}" for base in bases)
    for scope in (owner, klass, *bases):
        home = getattr(scope, "__module__", None)
        if isinstance(home, str) and home.startswith("draughts"):
            names.append(f"{home}.{target}")
    names.append(f"{module}.{target}")
    return list(dict.fromkeys(names))


def _aliases(name: str) -> list[str]:
    """``name``, its home, and the same object under each package above its
    module that re-exports it (``draughts.pdn.GameNode.unparsed`` for
    ``draughts.pdn.tree.GameNode.unparsed``)."""
    found = [name]
    home = _home(name)
    if home is not None:
        found.append(home)
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):  # the module: the longest importable prefix
        try:
            module = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        head = getattr(module, parts[cut], None)
        for above in range(cut - 1, 0, -1):
            package = _lookup(".".join(parts[:above]))
            if head is not None and getattr(package, parts[cut], None) is head:
                found.append(".".join([*parts[:above], *parts[cut:]]))
        break
    return found


def _resolve(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.TextElement
) -> nodes.reference | None:
    if node.get("refdomain") != "py":
        return None
    domain = env.get_domain("py")
    home = _home(node["reftarget"])
    candidates = [home] if home is not None else []
    for reading in _readings(node):
        candidates.extend(_aliases(reading))
    for name in dict.fromkeys(candidates):
        copy = node.deepcopy()
        copy["reftarget"] = name
        found = domain.resolve_xref(
            env, node.get("refdoc", ""), app.builder, node["reftype"], name, copy, contnode
        )
        if found is not None:
            return found
    return None


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("missing-reference", _resolve)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
