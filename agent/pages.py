"""The one Jinja2 set-up for HTML pages (the batch report, the bias audit): escaped, strict."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape


@lru_cache(maxsize=4)
def page_environment(folder: Path) -> Environment:
    """Templates of ``folder``, HTML-escaped, failing on any undefined name."""
    return Environment(
        loader=FileSystemLoader(folder),
        autoescape=select_autoescape(default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
