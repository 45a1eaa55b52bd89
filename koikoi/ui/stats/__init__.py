"""The practice statistics in the window: ``counting.py`` adds a finished practice match to
the statistics file (and words its problems), ``page.py`` is the start screen's Statistics
page. The figures themselves are :mod:`koikoi.stats`'s, Qt-free."""
