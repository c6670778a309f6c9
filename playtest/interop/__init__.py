"""The field's algorithm libraries, both ways. Imported on use: ``import playtest`` imports
neither this package nor ``pyspiel``.

* :mod:`.openspiel`: a kit game as an OpenSpiel game (``register(name_or_game, **params)``);
* :mod:`.pettingzoo`: a kit game as a PettingZoo AEC environment (``env(name, **params)``), and
  a parallel one for simultaneous games (``parallel_env``);
* :mod:`.spiel_game`: any OpenSpiel game on the kit's table (``playtest.load("openspiel:breakthrough")``);
* :mod:`.spiel_bots`: OpenSpiel's MCTS as a kit bot;
* :mod:`.core` (the kit game as numbered actions, shared by both adapters; :mod:`.orders`, :mod:`.runs`
  and :mod:`.memo` serve it: complete orders, runs of actions, listings by position), :mod:`.board`
  (numeric board planes) and :mod:`playtest.kernel.encoding` (the stable action numbers).

The libraries come with the ``interop`` extra (``open_spiel``, ``pettingzoo``, ``gymnasium``).
"""
