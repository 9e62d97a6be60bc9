"""A board in the web browser: play any variant against a person or the
built-in engine (``python -m draughts serve``, extra ``web``).

:func:`create_app` makes the ASGI application (Starlette): the page at
``/``, its files under ``/static/`` and a stateless JSON API under ``/api/``,
described in :doc:`/web`. Mount it in a bigger application, or serve it alone
with uvicorn:

>>> from starlette.testclient import TestClient
>>> from draughts.web import create_app
>>> client = TestClient(create_app())
>>> answer = client.post("/api/position", json={"variant": "dama", "fen": "B:WK29:BK4"}).json()
>>> answer["turn"], answer["claims"]
('black', ['insufficient-material'])
"""

from __future__ import annotations

from draughts.web.app import create_app

__all__ = ["create_app"]
