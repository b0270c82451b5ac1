"""What each chat action does: code over the stored analyses. Every figure and quote in an
answer comes from a saved report; an analysis is run only for a candidate who has none for the
role as it stands (new candidate, or the requirements changed)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent.batch.shortlist import Entry, ranked, shortlist_csv, strongest_quote
from agent.chat.commands import HELP
from agent.chat.state import ChatState, Reply
from agent.errors import InputError, NotFoundError
from agent.rubric.requirements import make_requirement, requirements_hash
from agent.service import AnalysisService
from schemas.inputs import CandidateProfile, JobPosting, Requirement
from schemas.report import MatchReport

VERDICT_WORDS = {
    "met": "met",
    "partial": "partly met",
    "not_met": "not met",
    "insufficient_evidence": "no evidence",
}
Updates = dict[str, Any]


class TurnCancelled(Exception):
    """The recruiter cancelled this answer: its work is dropped, the session is as before."""


@dataclass(frozen=True)
class ChatContext:
    service: AnalysisService
    out_dir: Path
    session: str = ""
    progress: Callable[[str], None] | None = None  # a line for long work (analyses)
    cancelled: threading.Event | None = None  # set: drop this turn's outcome

    def check_cancelled(self) -> None:
        if self.cancelled is not None and self.cancelled.is_set():
            raise TurnCancelled


def requirements_of(state: ChatState) -> list[Requirement]:
    return [Requirement.model_validate(r) for r in state.get("requirements", [])]


def _candidate_id(state: ChatState, given: str) -> str:
    candidates = state.get("candidates", {})
    if given in candidates:
        return given
    matches = [cid for cid in candidates if cid.lower() == given.lower()]
    if len(matches) == 1:
        return matches[0]
    known = ", ".join(sorted(candidates)[:8]) or "none"
    raise InputError(f"no candidate {given!r} in this session (candidates: {known})")


def _requirement(state: ChatState, rid: str) -> Requirement:
    for requirement in requirements_of(state):
        if requirement.id == rid:
            return requirement
    ids = ", ".join(r.id for r in requirements_of(state))
    raise InputError(f"no requirement {rid} (requirements: {ids})")


# -- analyses --------------------------------------------------------------------------------


def ensure_analyses(state: ChatState, ctx: ChatContext, ids: list[str]) -> tuple[Updates, int]:
    """Saved analyses for ``ids`` against the current requirements: reused when the role has
    not changed, else run (batched) and saved. Returns the state update and how many ran."""
    requirements = requirements_of(state)
    current = requirements_hash(requirements)
    known = {cid: dict(by_role) for cid, by_role in state.get("analyses", {}).items()}
    missing = [cid for cid in ids if current not in known.get(cid, {})]
    if not missing:
        return {}, 0
    job = JobPosting.model_validate(state["job"])
    profiles = [CandidateProfile.model_validate(state["candidates"][cid]) for cid in missing]
    if ctx.progress is not None:
        ctx.progress(f"analyzing {len(missing)} candidate(s) against the role…")
    outcomes = ctx.service.analyze_many(job, profiles, requirements=requirements)
    failed, reports = [], []
    for profile, outcome in zip(profiles, outcomes, strict=True):
        if isinstance(outcome, MatchReport):
            saved = ctx.service.save(job, profile, outcome)
            known.setdefault(profile.id, {})[current] = saved.analysis_id
            reports.append(outcome)
        else:
            failed.append(f"{profile.id}: {outcome}")
    if failed and len(failed) == len(missing):
        raise InputError("no analysis could be made: " + "; ".join(failed[:3]))
    return {"analyses": known, "speed": _speed(reports)}, len(reports)


def _speed(reports: list[MatchReport]) -> dict[str, float]:
    """Mean time per output token and draft acceptance of the analyses just run."""
    tpot = [r.metrics.get("tpot_ms") or 0.0 for r in reports]
    accepted = [(r.metrics.get("speculation") or {}).get("acceptance_rate") for r in reports]
    rates = [a for a in accepted if isinstance(a, int | float)]
    return {
        "tpot_ms": round(sum(tpot) / len(tpot), 1) if tpot else 0.0,
        "acceptance": round(sum(rates) / len(rates), 3) if rates else 0.0,
    }


def analysis_of(state: ChatState, cid: str) -> int | None:
    """The saved analysis of ``cid`` against the role as it stands, if any."""
    current = requirements_hash(requirements_of(state))
    return state.get("analyses", {}).get(cid, {}).get(current)


def report_of(state: ChatState, ctx: ChatContext, cid: str) -> MatchReport:
    from agent.store.repository import get_analysis

    analysis_id = analysis_of(state, cid)
    if analysis_id is None:
        raise NotFoundError(f"{cid} has no analysis yet: /rank analyzes everyone")
    database = ctx.service.database
    assert database is not None
    with database.session() as session:
        row = get_analysis(session, analysis_id=analysis_id, audit=None)
        return MatchReport.model_validate(row.report)


def _entries(state: ChatState, ctx: ChatContext) -> list[Entry]:
    entries = []
    for cid, profile in state.get("candidates", {}).items():
        analysis_id = analysis_of(state, cid)
        report = report_of(state, ctx, cid) if analysis_id is not None else None
        entries.append(
            Entry(
                cid,
                profile.get("display_name"),
                report,
                analysis_id,
                status="done" if report else "pending",
            )
        )
    return entries


# -- the actions -----------------------------------------------------------------------------


def rank(state: ChatState, ctx: ChatContext, args: dict[str, Any]) -> tuple[Reply, Updates, int]:
    updates, ran = ensure_analyses(state, ctx, list(state.get("candidates", {})))
    merged: ChatState = {**state, **updates}  # type: ignore[typeddict-item]
    rows = []
    for position, entry in enumerate(ranked(_entries(merged, ctx)), 1):
        if entry.report is None:
            rows.append({"#": "", "candidate": entry.candidate_id, "score": "", "status": "failed"})
            continue
        b = entry.report.breakdown
        rows.append(
            {
                "#": position,
                "candidate": entry.candidate_id,
                "score": entry.report.score,
                "recommendation": entry.report.recommendation.greenhouse,
                "must-haves": f"{b.must_have_met}/{b.must_have_total}",
                "strongest quote": strongest_quote(entry.report),
            }
        )
    text = f"{len(rows)} candidates, ranked by score (for your review)."
    if ran:
        text = f"Analyzed {ran}. " + text
    return {"text": _noted(text, merged), "table": rows}, updates, ran


def _noted(text: str, state: ChatState) -> str:
    """An answer about candidates, with the recruiter's notes beside it to weigh them by."""
    notes = state.get("notes", [])
    return text + ("\nYour notes: " + "; ".join(notes) if notes else "")


def why(state: ChatState, ctx: ChatContext, args: dict[str, Any]) -> tuple[Reply, Updates, int]:
    cid = _candidate_id(state, args["candidate"])
    updates, ran = ensure_analyses(state, ctx, [cid])
    report = report_of({**state, **updates}, ctx, cid)  # type: ignore[typeddict-item]
    b = report.breakdown
    lines = [f"{cid}: {report.score}/100, {report.recommendation.greenhouse} ({b.counts})."]
    if b.cap_reason:
        lines.append(f"Capped: {b.cap_reason}.")
    texts = {r.id: r for r in report.requirements}
    for a in report.analysis.assessments:
        requirement = texts[a.requirement_id]
        kind = "must" if requirement.kind == "must_have" else "nice"
        quote = f' — "{a.evidence[0]}"' if a.evidence else ""
        lines.append(
            f"  {a.requirement_id} ({kind}) {requirement.text}: {VERDICT_WORDS[a.verdict]}{quote}"
        )
    lines.append(f"Summary: {report.analysis.summary}")
    return {"text": _noted("\n".join(lines), state)}, updates, ran


def compare(state: ChatState, ctx: ChatContext, args: dict[str, Any]) -> tuple[Reply, Updates, int]:
    first, second = (_candidate_id(state, args[k]) for k in ("candidate", "other"))
    if first == second:
        raise InputError("compare two different candidates")
    updates, ran = ensure_analyses(state, ctx, [first, second])
    merged: ChatState = {**state, **updates}  # type: ignore[typeddict-item]
    a, b = report_of(merged, ctx, first), report_of(merged, ctx, second)
    verdicts_b = {x.requirement_id: x.verdict for x in b.analysis.assessments}
    rows = [
        {
            "requirement": f"{x.requirement_id} {r.text}",
            first: VERDICT_WORDS[x.verdict],
            second: VERDICT_WORDS[verdicts_b[x.requirement_id]],
        }
        for r, x in zip(a.requirements, a.analysis.assessments, strict=True)
    ]
    rows.append({"requirement": "score", first: a.score, second: b.score})
    lead = first if a.score > b.score else second if b.score > a.score else None
    text = f"{lead} scores higher." if lead else "They score the same."
    return {"text": _noted(text, state), "table": rows}, updates, ran


def _changed_role(
    state: ChatState, ctx: ChatContext, requirements: list[Requirement], said: str
) -> tuple[Reply, Updates, int]:
    edited: ChatState = {**state, "requirements": [r.model_dump() for r in requirements]}  # type: ignore[typeddict-item]
    reply, updates, ran = rank(edited, ctx, {})
    reply["text"] = f"{said} Re-ranked: " + reply["text"]
    return reply, {"requirements": edited["requirements"], **updates}, ran


def require(state: ChatState, ctx: ChatContext, args: dict[str, Any]) -> tuple[Reply, Updates, int]:
    current = requirements_of(state)
    index = max((int(r.id[1:]) for r in current if r.id[1:].isdigit()), default=0) + 1
    kind = "nice_to_have" if args.get("nice") else "must_have"
    added = make_requirement(index, args["text"], kind=kind)
    said = f"Added {added.id} ({kind.replace('_', '-')}): {added.text}."
    return _changed_role(state, ctx, [*current, added], said)


def drop(state: ChatState, ctx: ChatContext, args: dict[str, Any]) -> tuple[Reply, Updates, int]:
    gone = _requirement(state, args["requirement"])
    kept = [r for r in requirements_of(state) if r.id != gone.id]
    if not kept:
        raise InputError("a role needs at least one requirement")
    return _changed_role(state, ctx, kept, f"Dropped {gone.id}: {gone.text}.")


def weight(state: ChatState, ctx: ChatContext, args: dict[str, Any]) -> tuple[Reply, Updates, int]:
    target = _requirement(state, args["requirement"])
    value = args["weight"]
    if not 0 < value <= 10:
        raise InputError("a weight is a number above 0, up to 10")
    changed = [
        Requirement(**{**r.model_dump(), "weight": value}) if r.id == target.id else r
        for r in requirements_of(state)
    ]
    return _changed_role(state, ctx, changed, f"{target.id} now weighs {value:g}.")


def show_requirements(
    state: ChatState, ctx: ChatContext, args: dict[str, Any]
) -> tuple[Reply, Updates, int]:
    rows = [
        {"id": r.id, "kind": r.kind.replace("_", "-"), "weight": f"{r.weight:g}", "text": r.text}
        for r in requirements_of(state)
    ]
    return {"text": f"{state['job']['title']}: {len(rows)} requirements.", "table": rows}, {}, 0


def note(state: ChatState, ctx: ChatContext, args: dict[str, Any]) -> tuple[Reply, Updates, int]:
    notes = [*state.get("notes", []), args["text"]]
    count = f"{len(notes)} note{'s' if len(notes) > 1 else ''}"
    return {"text": f"Noted: {args['text']} ({count} in this session)."}, {"notes": notes}, 0


def shortlist(
    state: ChatState, ctx: ChatContext, args: dict[str, Any]
) -> tuple[Reply, Updates, int]:
    reply, updates, ran = rank(state, ctx, {})
    top = [row["candidate"] for row in reply.get("table", []) if row.get("score") != ""]
    chosen = top[: args["count"]]
    return (
        {
            "text": _noted(f"Shortlist ({len(chosen)}): " + ", ".join(chosen), state),
            "table": reply["table"][: len(chosen)],
        },
        {**updates, "shortlist": chosen},
        ran,
    )


def export(state: ChatState, ctx: ChatContext, args: dict[str, Any]) -> tuple[Reply, Updates, int]:
    updates, ran = ensure_analyses(state, ctx, list(state.get("candidates", {})))
    merged: ChatState = {**state, **updates}  # type: ignore[typeddict-item]
    entries = _entries(merged, ctx)
    ctx.out_dir.mkdir(parents=True, exist_ok=True)
    if args["format"] == "csv":
        target = ctx.out_dir / "shortlist.csv"
        target.write_text(shortlist_csv(entries), encoding="utf-8")
    else:
        target = ctx.out_dir / "report.html"
        target.write_text(_report_page(merged, entries, ctx.session), encoding="utf-8")
    return {"text": f"Wrote {target} ({len(entries)} candidates)."}, updates, ran


def _report_page(state: ChatState, entries: list[Entry], session: str) -> str:
    from datetime import UTC, datetime

    from agent.batch.exports import RunView
    from agent.batch.html import render_report_html

    now = datetime.now(UTC)
    view = RunView(
        run_id=0,
        name=None,
        origin_label=f"chat session {session}",
        status="finished",
        created_at=now,
        finished_at=now,
        settings=_page_settings([e.report for e in entries if e.report is not None]),
        job=JobPosting.model_validate({**state["job"], "requirements": state["requirements"]}),
        entries=entries,
        counts={"done": sum(1 for e in entries if e.report is not None)},
        speed=_page_speed([e.report for e in entries if e.report is not None]),
    )
    return render_report_html(view)


def _page_settings(reports: list[MatchReport]) -> dict[str, str]:
    """The model and speculation that made the analyses, from the newest one's provenance
    (the page said "speculation off" beside a 90% draft acceptance)."""
    from serving.config import SpeculationConfig

    if not reports:
        return {}
    provenance = max(reports, key=lambda r: r.provenance.created_at).provenance
    described = {k: v for k, v in provenance.speculation.items() if v is not None}
    return {
        "engine": provenance.engine,
        "model": provenance.model,
        "speculation": SpeculationConfig.model_validate(described).label,
    }


def _page_speed(reports: list[MatchReport]) -> dict[str, float | None]:
    """The report page's speed figures, from each report's own metrics."""

    def mean(values: list[float]) -> float | None:
        return round(sum(values) / len(values), 3) if values else None

    spec = [r.metrics.get("speculation") or {} for r in reports]
    return {
        "analyses": len(reports),
        "mean_e2e_s": mean([r.metrics["e2e_s"] for r in reports if r.metrics.get("e2e_s")]),
        "mean_tpot_ms": mean([r.metrics["tpot_ms"] for r in reports if r.metrics.get("tpot_ms")]),
        "mean_acceptance_rate": mean(
            [s["acceptance_rate"] for s in spec if s.get("acceptance_rate") is not None]
        ),
        "analyses_per_minute": None,  # a chat's analyses come turn by turn: no pace
    }


def forget(state: ChatState, ctx: ChatContext, args: dict[str, Any]) -> tuple[Reply, Updates, int]:
    from agent.store.repository import forget_candidate

    cid = _candidate_id(state, args["candidate"])
    database = ctx.service.database
    assert database is not None
    if cid in state.get("analyses", {}):
        with database.session() as session:
            forget_candidate(session, ref=cid)
    candidates = {k: v for k, v in state.get("candidates", {}).items() if k != cid}
    analyses = {k: v for k, v in state.get("analyses", {}).items() if k != cid}
    kept = [c for c in state.get("shortlist", []) if c != cid]
    updates = {"candidates": candidates, "analyses": analyses, "shortlist": kept}
    return {"text": f"Forgot {cid}: their profile and analyses are deleted."}, updates, 0


def help_text(
    state: ChatState, ctx: ChatContext, args: dict[str, Any]
) -> tuple[Reply, Updates, int]:
    return {"text": HELP}, {}, 0


TOOLS = {
    "rank": rank,
    "why": why,
    "compare": compare,
    "require": require,
    "drop": drop,
    "weight": weight,
    "requirements": show_requirements,
    "note": note,
    "shortlist": shortlist,
    "export": export,
    "forget": forget,
    "help": help_text,
}
