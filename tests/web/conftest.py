"""The web server's fixtures (``bot_dir``, ``app``, ``client``): tests/support/web.py."""

from tests.support.web import app, bot_dir, client  # noqa: F401 - offered to tests/web
