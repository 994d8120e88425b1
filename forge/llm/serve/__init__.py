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

from forge.llm.serve.faults import FaultPlan, PlannedFault, ServerStats
from forge.llm.serve.policy import ServePolicy
from forge.llm.serve.server import ModelServer

__all__ = ["FaultPlan", "ModelServer", "PlannedFault", "ServePolicy", "ServerStats"]
