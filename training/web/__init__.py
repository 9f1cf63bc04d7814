"""`plunder serve`: play the games against bots, watch bots and open replays in a browser.

A local web server (Starlette, served by uvicorn) with a plain-JS page: pick a game, the
player count, variant options, your seat and the bots, then play from your seat (you see
only what your seat's view holds), or watch bots play from any seat or omniscient, step by
step, and save or open replays. See docs/web.md; the API is in :mod:`.app`, the games on
the server in :mod:`.sessions`, the clickable tables in :mod:`.boards`, replay files in
:mod:`.replays`. Needs the ``web`` extra (starlette, uvicorn).
"""

from .app import create_app, serve

__all__ = ["create_app", "serve"]
