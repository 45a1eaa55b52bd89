"""The rules of Koi-Koi: Qt-free, no I/O."""

from koikoi.engine import compiled as _compiled

_compiled.choose()
