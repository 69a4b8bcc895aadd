"""Both games for the frameworks researchers use: OpenSpiel and PettingZoo.

`tables` numbers every action of each game once and for all, `chance` turns the bag and
the deck into OpenSpiel's explicit chance nodes, `board_encoding` and `cards_encoding`
turn a seat's view into tensors; `openspiel` and `pettingzoo` are the adapters. The
adapters need the optional extras (``pip install 'euphrates[openspiel]'`` or
``'euphrates[pettingzoo]'``) and import them only when imported themselves, so nothing
here is loaded by the rest of the package. docs/adapters.md describes them.
"""
