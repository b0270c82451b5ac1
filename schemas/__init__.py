"""Pydantic models: inputs, the model's output, and the per-request JSON schema sent to vLLM."""
