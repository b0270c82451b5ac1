"""Everything about the LLM engine: settings, in-process vLLM, embedded model, metrics, fake."""
