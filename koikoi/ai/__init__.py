"""Computer players. Each sees an Observation, never the full state."""
