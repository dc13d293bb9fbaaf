"""What the tests share and nothing else does, imported as ``support.NAME``
(pyproject.toml puts tests/ on the path): variants with either kernel and
random games (``variants``), the protocol tests' bots and server session
(``testbots``), a broken engine run as a program (``fake_engine``), the
browser and server of the end-to-end tests (``web``), the perfect bot as a
play-out player (``perfect``) and an exhaustive
AND/OR search to check the prover against (``proofs``).

Code that a benchmark needs too lives in the library instead (the Oware
judges in bingwa.engine.oware_exhaustive and oware_judge, the busy bot in
bingwa.bots.busy).
"""
