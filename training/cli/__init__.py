"""The ``plunder`` command: :mod:`.console` is the console script (it names the extra a
command is missing), :mod:`.commands` the click group, :mod:`.options` the arguments
every command shares (GAME, ``--bots``), :mod:`.benchmark` the ``plunder benchmark``
group. Importing this package imports nothing else: the command line needs the ``cli``
extra, and the console script says so when it is missing.
"""
