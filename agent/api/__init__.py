"""The HTTP API (FastAPI): analyses, batches, candidates, webhooks, ATS payloads and inbound
Greenhouse webhooks, over the one analysis service. ``hiring-assistant serve`` runs it."""
