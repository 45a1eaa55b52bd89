"""koikoi: the hanafuda game Koi-Koi for two players, on a LAN or by address, with no server."""

__version__ = "0.1.0"
