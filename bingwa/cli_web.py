"""``bingwa serve``: the web front-end (bingwa/web, docs/web.md)."""

from __future__ import annotations

from pathlib import Path

import click

from bingwa.cli_common import fail

LOOPBACK = ("127.0.0.1", "::1", "localhost")


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (the default lets only this machine in).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on.")
@click.option("--engine", "engines", multiple=True, metavar="NAME=CMD",
              help="Add an engine the page may pick, e.g. --engine mcts='bingwa engine --bot mcts'"
                   " (bingwa=bingwa engine is always there; --engine bingwa=... replaces it)."
                   " Repeat for more.")
@click.option("--max-engines", default=8, show_default=True, type=click.IntRange(1, 64),
              help="Engine processes the server runs at once.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a browser.")
@click.option("--db", "db", default=None, metavar="PATH",
              help="The SQLite file of the rooms (play a friend by a link) "
                   "[default: ./bingwa-rooms.sqlite].")
def serve(host: str, port: int, engines: tuple[str, ...], max_engines: int,
          open_browser: bool, db: str | None) -> None:
    """Play every variant in a browser, against engines or people."""
    try:
        from bingwa.web.engines import EnginePool, engine_commands
        from bingwa.web.rooms import RoomError, RoomStore, default_path
        from bingwa.web.server import serve as run_server
    except ModuleNotFoundError as exc:
        fail(f"bingwa serve needs {exc.name} (pip install aiohttp)")
    try:
        commands = engine_commands(engines)
    except ValueError as exc:
        fail(str(exc))
    path = Path(db) if db else default_path()
    if not path.parent.is_dir():
        fail(f"--db {path}: the folder {path.parent} does not exist")
    if path.is_dir():
        fail(f"--db {path}: is a folder, not a file")
    try:
        rooms = RoomStore(path)
    except RoomError as exc:
        fail(f"--db {exc}")
    if host not in LOOPBACK:
        click.echo(f"bingwa serve: warning: listening on {host}: the server faces the network;"
                   " anyone who reaches it can open rooms and run the engines", err=True)
    pool = EnginePool(commands, limit=max_engines)
    url = f"http://{'localhost' if host in ('127.0.0.1', '::1') else host}:{port}/"

    def announce(line: str) -> None:
        if line.startswith("======== Running"):
            click.echo(f"bingwa serve: play at {url} (Ctrl-C to stop)")
            if open_browser:
                import webbrowser

                webbrowser.open(url)

    try:
        run_server(host, port, pool, announce, rooms)
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
