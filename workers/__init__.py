"""Ray side of FORGE: one actor per population instance, and the session driver."""
