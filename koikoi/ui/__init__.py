"""The PySide6 desktop app. The only package that imports Qt."""

from koikoi.ui import qtfix as _qtfix  # noqa: F401  (first: PySide6 6.12 on CPython 3.11)
