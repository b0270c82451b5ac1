"""The rubric: requirements, facts code can compute, evidence retrieval, scoring."""
