"""bingwa.protocol: the UCI-shaped engine protocol (docs/protocol.md).

- ``server``: EngineServer, any Bot behind the protocol (``bingwa engine``);
- ``client``: Engine, driving any protocol engine with typed limits and
  results; ``transport`` carries its lines, ``errors`` tells failures apart;
- ``wire``: the words both sides share; ``dialect`` and ``auale``: how
  moves and positions are written (bingwa's words, Aualé's); ``dialects``
  finds one by name;
- ``options``: what ``setoption`` does;
- ``compliance``: ``bingwa compliance``, an engine checked against the spec;
- ``external``: the external bot, another engine behind the client;
  ``bots`` finds it and every bot of bingwa.bots by name.

Modules are imported on demand (``bingwa engine`` starts fast).
"""
