"""Hiring Assistant: match analysis of candidates against a job, served by a local vLLM engine."""
