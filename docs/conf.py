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
]
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
nitpicky = False
html_theme = "alabaster"
exclude_patterns = ["_build"]
