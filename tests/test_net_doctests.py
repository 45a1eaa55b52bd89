"""The examples in koikoi.net's docstrings run as tests (the default test paths skip modules)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "koikoi.net.fair",
    "koikoi.net.handshake",
    "koikoi.net.hello",
    "koikoi.net.identity",
    "koikoi.net.noise",
    "koikoi.net.pake",
    "koikoi.net.private",
    "koikoi.net.sas",
    "koikoi.net.stamps",
    "koikoi.net.wire",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failures, attempted = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert attempted > 0, f"{name} has no examples"
    assert failures == 0
