"""Plain-text tables for terminals and logs: one style, rendered by rich without colour codes."""

from __future__ import annotations

import io

from rich import box
from rich.console import Console
from rich.table import Table

WIDTH = 120


def new_table() -> Table:
    """A table with a rule under the header and no outer border (rows start with their cell)."""
    return Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0))


def render_table(table: Table, width: int = WIDTH) -> list[str]:
    """The table as plain lines (no ANSI, no markup or emoji interpretation, no trailing spaces)."""
    console = Console(
        file=io.StringIO(),
        width=width,
        color_system=None,
        markup=False,
        emoji=False,
        highlight=False,
    )
    with console.capture() as capture:
        console.print(table)
    return [line.rstrip() for line in capture.get().splitlines()]
