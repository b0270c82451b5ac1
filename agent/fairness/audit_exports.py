"""A bias audit's files: ``audit.csv`` (one row per table and category), ``audit.json`` (all of
it) and ``audit.html`` (one self-contained page: inline style, no script, no network)."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from pathlib import Path

from agent.fairness.audit import AuditResult
from agent.pages import page_environment

TEMPLATES = Path(__file__).with_name("templates")
FILE_NAMES = {"csv": "audit.csv", "json": "audit.json", "html": "audit.html"}
CSV_COLUMNS = (
    "table",
    "category",
    "candidates",
    "above_median",
    "scoring_rate",
    "impact_ratio",
    "under_2_percent",
    "excluded_reason",
    "share_of_sample",
    "table_unknown",
    "sample_median",
    "basis",
)
BASIS = (
    "Decision support for human review. Scoring rate: share of the category scoring strictly "
    "above the sample median; impact ratio: that rate / the highest rate in the table "
    "(NYC Local Law 144; 6 RCNY §§ 5-300, 5-301). Full definitions in audit.json."
)


def _number(value: float | None, places: int = 4) -> str:
    return "" if value is None else f"{value:.{places}f}"


def audit_csv(result: AuditResult) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for table in result.tables:
        for c in table.categories:
            reason = c.excluded_reason or table.note or ""
            writer.writerow(
                [
                    table.key,
                    c.category,
                    c.candidates,
                    c.above_median,
                    _number(c.scoring_rate),
                    _number(c.impact_ratio),
                    "yes" if c.under_2_percent else "no",
                    reason,
                    _number(c.share_of_sample),
                    table.unknown,
                    result.median,
                    BASIS,
                ]
            )
    return out.getvalue()


def audit_json(result: AuditResult, files: dict[str, str] | None = None) -> str:
    data = result.model_dump(mode="json")
    if files:
        data["files"] = files
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def audit_html(result: AuditResult, *, made_at: datetime | None = None) -> str:
    return (
        page_environment(TEMPLATES)
        .get_template("audit.html.j2")
        .render(audit=result, made_at=(made_at or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M"))
    )


def write_audit(result: AuditResult, out_dir: Path) -> dict[str, Path]:
    """The three files in ``out_dir`` (created if need be); their paths by format."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {fmt: out_dir / name for fmt, name in FILE_NAMES.items()}
    shown = {fmt: str(path) for fmt, path in paths.items()}
    paths["csv"].write_text(audit_csv(result), encoding="utf-8")
    paths["json"].write_text(audit_json(result, shown), encoding="utf-8")
    paths["html"].write_text(audit_html(result), encoding="utf-8")
    return paths
