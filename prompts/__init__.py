"""Jinja2 prompt templates and the one function that renders them."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

TEMPLATE_DIR = Path(__file__).parent


@lru_cache(maxsize=1)
def _environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(TEMPLATE_DIR),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
        keep_trailing_newline=False,
    )


def render(name: str, **context: Any) -> str:
    """Render ``prompts/<name>.j2``; a missing variable raises instead of rendering blank."""
    return _environment().get_template(f"{name}.j2").render(**context).strip()


def render_chat(prefix: str, **context: Any) -> list[dict[str, str]]:
    """The ``<prefix>_system`` and ``<prefix>_user`` templates as chat messages."""
    return [
        {"role": "system", "content": render(f"{prefix}_system", **context)},
        {"role": "user", "content": render(f"{prefix}_user", **context)},
    ]


def template_version() -> str:
    """Short hash of every template (analysis, repair, requirements): goes into provenance, so
    a change to any prompt an analysis may use makes a new analysis, not an old row."""
    digest = hashlib.sha256()
    for path in sorted(TEMPLATE_DIR.glob("*.j2")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
