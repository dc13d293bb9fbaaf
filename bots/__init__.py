"""bingwa.bots."""
