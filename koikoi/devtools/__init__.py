"""The developers' tools, not the product's: the screenshots of ``docs/screenshots``, the
deck's contact sheet, and the window's network benches of ``docs/benchmarks.md``. The
packaged app leaves this package out (``packaging/koikoi.spec``); they run from a checkout,
``python -m koikoi.devtools.NAME``."""
