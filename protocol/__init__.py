"""bingwa.protocol."""
