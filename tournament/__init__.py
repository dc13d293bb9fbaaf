"""bingwa.tournament."""
