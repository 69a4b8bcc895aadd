"""Euphrates: Tigris & Euphrates and Contest of Kings as exact, fast rules engines.

The engines share one protocol (`euphrates.core`): a game is created from options
and a seed, says whose decision is pending, lists exactly the legal actions, applies
one and returns the events it caused, and gives each seat a view with nothing in it
that seat may not see.
"""

__version__ = "0.1.0"
