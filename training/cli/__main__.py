"""``python -m plunder.training.cli``: the ``plunder`` command."""

from .console import main

main()
