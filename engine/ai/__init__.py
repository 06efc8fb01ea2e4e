"""AI players. A policy receives only a seat's view, never the full state."""
