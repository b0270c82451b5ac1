"""What a chat session remembers (checkpointed after every turn) and what one turn carries."""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict


class Action(TypedDict):
    name: str
    args: dict[str, Any]


class Reply(TypedDict, total=False):
    text: str
    table: list[dict[str, Any]]  # rows the terminal shows as a table


class ChatState(TypedDict, total=False):
    # the session: kept across turns and restarts
    job: dict[str, Any]  # the JobPosting
    requirements: list[dict[str, Any]]  # the role as the recruiter has edited it
    candidates: dict[str, dict[str, Any]]  # id -> CandidateProfile
    analyses: dict[str, dict[str, int]]  # candidate id -> requirements hash -> analysis id
    notes: list[str]
    shortlist: list[str]
    messages: Annotated[list[dict[str, str]], operator.add]  # the conversation
    # one turn
    message: str
    action: Action
    reply: Reply
    analyzed: int  # analyses run this turn (0 when answered from memory)
    speed: dict[str, float]  # their mean TPOT and draft acceptance
