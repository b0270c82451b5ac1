"""Responsible screening: name-swap invariance and the bias audit (NYC Local Law 144)."""
