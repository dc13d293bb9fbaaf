"""bingwa.web: ``bingwa serve``, a local web app that plays every variant
in a browser against engines driven through bingwa's protocol client.

- board.py: what the page draws, computed from a Position (pits, stores,
  hands, marks, the legal moves grouped by starting pit, why a pit cannot
  move, the last move and its captures);
- messages.py: the browser's messages, validated (type, size, fields);
- session.py: one game owned by the server (moves, cursor, players);
- engines.py: the bounded pool of engine processes and a game's engines;
- server.py: the aiohttp application (page, assets, WebSocket);
- rooms.py: a room, two people at two screens by a link, and its SQLite
  store; room_server.py: its HTTP request and socket.

docs/web.md describes the whole.
"""
