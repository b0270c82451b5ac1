"""One chat session: open or resume it by name, send a message, read what it remembers."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from agent.batch.sources import CandidateSet
from agent.chat.graph import build_chat_graph
from agent.chat.state import ChatState, Reply
from agent.chat.tools import ChatContext
from agent.errors import InputError
from agent.rubric.text_tools import content_hash
from agent.service import AnalysisService
from schemas.inputs import JobPosting, Requirement


@dataclass(frozen=True)
class Turn:
    reply: Reply
    analyzed: int
    seconds: float
    speed: dict[str, float]


class ChatSession:
    def __init__(
        self,
        service: AnalysisService,
        checkpointer: Any,
        name: str,
        out_dir: Path,
        progress: Callable[[str], None] | None = None,
    ) -> None:
        self.name = name
        self._graph = build_chat_graph(checkpointer)
        self._config = {"configurable": {"thread_id": name}}
        self._context = ChatContext(
            service=service, out_dir=out_dir, session=name, progress=progress
        )

    @property
    def engine(self) -> Any:
        return self._context.service.engine

    @property
    def state(self) -> ChatState:
        return self._graph.get_state(self._config).values  # type: ignore[return-value]

    def exists(self) -> bool:
        return bool(self.state.get("job"))

    def start(
        self, job: JobPosting, candidates: CandidateSet, requirements: list[Requirement]
    ) -> None:
        """A new session about ``job``."""
        initial: ChatState = {
            "job": job.model_dump(mode="json"),
            "requirements": [r.model_dump(mode="json") for r in requirements],
            "candidates": {},
            "analyses": {},
            "notes": [],
            "shortlist": [],
            "messages": [],
        }
        self._graph.update_state(self._config, initial, as_node="record")
        self.add_candidates(candidates)

    def check_job(self, job: JobPosting) -> None:
        """InputError when the session is about another job."""
        held = self.state["job"]
        if content_hash(held["text"]) != content_hash(job.text):
            raise InputError(
                f"session {self.name!r} is about {held['title']!r}; "
                "use another session name for this job, or leave the job out to resume it"
            )

    def add_candidates(self, candidates: CandidateSet) -> int:
        """Candidates not in the session yet; returns how many were added."""
        held = dict(self.state.get("candidates", {}))
        new = {c.id: c.model_dump(mode="json") for c in candidates.candidates if c.id not in held}
        if new:
            self._graph.update_state(
                self._config, {"candidates": {**held, **new}}, as_node="record"
            )
        return len(new)

    def send(self, message: str, cancelled: threading.Event | None = None) -> Turn:
        """One exchange. Setting ``cancelled`` while it runs drops its outcome
        (``TurnCancelled`` is raised instead; the session stays as it was)."""
        started = time.perf_counter()
        context = replace(self._context, cancelled=cancelled)
        final = self._graph.invoke({"message": message}, self._config, context=context)
        analyzed = final.get("analyzed", 0)
        return Turn(
            final.get("reply", {}),
            analyzed,
            time.perf_counter() - started,
            final.get("speed", {}) if analyzed else {},
        )


def open_session(
    talk: ChatSession,
    service: AnalysisService,
    job: JobPosting | None,
    candidates: CandidateSet | None,
) -> str:
    """Resume the session (adding new candidates) or start it; returns a line saying which.
    InputError when a new session lacks its job or candidates, or the job is another one."""
    if talk.exists():
        if job is not None:
            talk.check_job(job)
        added = talk.add_candidates(candidates) if candidates else 0
        held = talk.state
        return (
            f"Resumed session {talk.name!r}: {held['job']['title']}, "
            f"{len(held.get('candidates', {}))} candidates"
            + (f" ({added} new)" if added else "")
            + f", {len(held.get('messages', [])) // 2} earlier messages."
        )
    if job is None:
        raise InputError(f"no session {talk.name!r} yet: give the job to start it")
    if candidates is None or not candidates.candidates:
        raise InputError("a new session needs candidates")
    requirements = job.requirements
    if job.requirements_source == "prose":
        requirements = service.requirements(job)
    talk.start(job, candidates, requirements)
    return (
        f"Session {talk.name!r}: {job.title}, {len(candidates.candidates)} candidates. "
        "/help lists what you can ask."
    )
