"""The PySide6 desktop app. The only package of the product that imports Qt (the developers'
tools of :mod:`koikoi.devtools` do too, and are not in the packaged app).

Its top holds the app's entry (``app.py``, ``smoke.py``, ``quitting.py``, ``syslibs.py``) and
the main window with its start screen; the rest is one subpackage per screen or job:
``common`` (what all of them share), ``match``, ``table``, ``lobby``, ``learn``, ``replay``
and ``net`` (docs/architecture.md has the map)."""
