"""Niagara Companion: a camera, LED and phone companion for the board game Niagara."""

__version__ = "0.1.0"
