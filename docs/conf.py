"""Sphinx configuration for the draughts documentation."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.abspath(".."))
sys.path.insert(0, os.path.abspath("_ext"))

import draughts

project = "draughts"
author = "The draughts developers"
copyright = "2026, the draughts developers"
version = release = draughts.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
    "variant_table",
    "variant_pages",
    "reexports",
]
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
# Defaults as written in the source: `variant=INTERNATIONAL`, not the
# Variant value's repr of several thousand characters.
autodoc_preserve_defaults = True
# Every cross-reference must resolve. Python's own documentation is linked
# through intersphinx from a local copy of its inventory (Debian's
# python3.11-doc package, which .ci/run installs): the build must not need
# the network (CI and this project's machines build offline). Without that
# copy, the standard library's names are listed as known instead. Names of
# the optional dependencies are always listed as known; a broken reference
# to the package's own names is an error either way.
_PYTHON_INVENTORIES = [
    path
    for path in (
        "/usr/share/doc/python3.11/html/objects.inv",
        "/usr/share/doc/python3/html/objects.inv",
    )
    if os.path.exists(path)
]
if _PYTHON_INVENTORIES:
    extensions.append("sphinx.ext.intersphinx")
    intersphinx_mapping = {"python": ("https://docs.python.org/3", _PYTHON_INVENTORIES[0])}
nitpicky = True
_STDLIB = (
    r"|collections|os|pathlib|typing|types|io|sqlite3|socket|ast|enum|threading|random"
    r"|concurrent|subprocess|argparse"
)
nitpick_ignore_regex = [
    (
        r"py:.*",
        r"(numpy|np|attrs?|starlette|uvicorn|gymnasium|pettingzoo|dask|distributed|zstandard"
        + ("" if _PYTHON_INVENTORIES else _STDLIB)
        + r")(\..*)?",
    ),
    # Builtins written without a module.
    (
        r"py:.*",
        r"(str|int|float|bool|bytes|list|tuple|dict|set|frozenset|object|None"
        r"|Ellipsis|NotImplemented|type|slice|range|memoryview|bytearray)",
    ),
    # Names in signatures that have no page of their own: type variables and
    # aliases, and the private classes of the engines' wire protocols.
    (r"py:class", r"draughts\.pdn\.headers\.ResultT|draughts\.engine\.matches\.EngineSpec|Paths"),
    (r"py:class", r"draughts\.engine\.(search\.Searcher|hub\.Process|_dxp_wire\..*)"),
]
html_theme = "alabaster"
exclude_patterns = ["_build"]
