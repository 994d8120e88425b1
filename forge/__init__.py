"""FORGE: population training of LLM agents that learn from failures without weight updates."""

__version__ = "0.1.0"
