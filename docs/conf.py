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
# Every cross-reference must resolve. Python's own documentation is not
# linked (intersphinx): its inventory needs the network, which the build
# must not (CI and this project's machines build offline). So names of the
# standard library and of the optional dependencies are listed as known
# instead; a broken reference to the package's own names is still an error.
nitpicky = True
nitpick_ignore_regex = [
    (
        r"py:.*",
        r"(collections|os|pathlib|typing|types|io|sqlite3|socket|ast|enum|threading|random"
        r"|concurrent|subprocess|argparse|numpy|np|attrs?|starlette|uvicorn|gymnasium"
        r"|pettingzoo|dask|distributed|zstandard)(\..*)?",
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
