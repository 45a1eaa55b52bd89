"""Peer-to-peer play: sans-I/O protocol core and thin transports."""
