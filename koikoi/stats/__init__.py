"""The practice statistics, Qt-free: what the start screen's Statistics page and
``koikoi stats`` show (CLI.md).

``tally.py`` turns a finished practice match's record into one :class:`~koikoi.stats.tally.Entry`
(from the engine's replay of it: the rules are never decided here) and adds entries up into
the JSON of ``koikoi stats``; ``store.py`` keeps the entries in ``stats.json`` in the home
folder (written atomically; a damaged file set aside, never lost); ``cli.py`` is the command.
"""
