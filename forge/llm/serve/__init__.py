"""A local HTTP front for any provider, speaking the OpenAI chat API and Gemini's generateContent.

Real clients (`openai`, `google-genai`) can then be driven end to end against whatever FORGE serves
(the surrogate model, a fault-injected provider, a test stub). One concern per module:

- `faults`: server-side fault scripting (`FaultPlan`) and counters (`ServerStats`);
- `wire`: OpenAI / Gemini bodies to and from FORGE's types (pure);
- `policy`: what is let through: key, bind address, models, max tokens, body size (pure);
- `app`: one request, independent of HTTP framing (`ModelApp`);
- `http`: HTTP/1.1 framing on the standard library;
- `server`: lifecycle (`ModelServer`).
"""

from importlib import import_module

# Loaded on first use: `forge serve --help` (and every `forge --help`) reads only `policy`'s defaults.
_HOMES = {"FaultPlan": "faults", "PlannedFault": "faults", "ServerStats": "faults", "ServePolicy": "policy",
          "ModelServer": "server"}


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'forge.llm.serve' has no attribute {name!r}")
    return getattr(import_module(f"forge.llm.serve.{home}"), name)


__all__ = ["FaultPlan", "ModelServer", "PlannedFault", "ServePolicy", "ServerStats"]
