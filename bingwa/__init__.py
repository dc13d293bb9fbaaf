"""bingwa: an engine for mancala games (Oware, Ayoayo, Bao, Kalah)."""

__version__ = "0.1.0"
