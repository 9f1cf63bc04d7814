"""Playing a game in the terminal against bots (``plunder play GAME``; :mod:`.terminal`)."""
