"""Slash commands: each does exactly one thing; a wrong one gets a one-line answer saying why."""

from __future__ import annotations

import shlex

from agent.chat.state import Action
from agent.errors import InputError

HELP = """Commands (or ask in plain words):
  /rank                    rank the candidates by score
  /why CAND                one candidate's verdicts, with the quotes from their profile
  /compare A B             two candidates, requirement by requirement
  /require TEXT [--nice]   add a requirement (the analyses are re-run)
  /drop RID                remove a requirement
  /weight RID N            weigh a requirement N (0-10; default 1)
  /requirements            the role's requirements as they stand
  /note TEXT               remember a preference (shown with rankings)
  /shortlist N             keep the top N
  /export csv|html         write the shortlist (CSV) or the report page (HTML)
  /forget CAND             delete a candidate and their analyses
  /help                    this list
Scores and recommendations are for your review, not decisions."""

USAGE = {
    "rank": "/rank",
    "why": "/why CAND",
    "compare": "/compare A B",
    "require": "/require TEXT [--nice]",
    "drop": "/drop RID",
    "weight": "/weight RID N",
    "requirements": "/requirements",
    "note": "/note TEXT",
    "shortlist": "/shortlist N",
    "export": "/export csv|html",
    "forget": "/forget CAND",
    "help": "/help",
}


def parse_command(line: str) -> Action:
    """The action a ``/command`` line asks for; InputError with the usage when it is wrong."""
    try:
        words = shlex.split(line[1:])
    except ValueError as exc:
        raise InputError(f"cannot read that command: {exc}") from None
    if not words:
        raise InputError("an empty command: /help lists them")
    name, rest = words[0].lower(), words[1:]
    if name not in USAGE:
        raise InputError(f"no command /{name}: /help lists them")

    def need(count: int) -> None:
        if len(rest) != count:
            raise InputError(f"usage: {USAGE[name]}")

    if name in ("rank", "help", "requirements"):
        need(0)
        return {"name": name, "args": {}}
    if name in ("why", "forget"):
        need(1)
        return {"name": name, "args": {"candidate": rest[0]}}
    if name == "compare":
        need(2)
        return {"name": name, "args": {"candidate": rest[0], "other": rest[1]}}
    if name == "require":
        nice = "--nice" in rest
        text = " ".join(w for w in rest if w != "--nice").strip()
        if not text:
            raise InputError(f"usage: {USAGE[name]}")
        return {"name": name, "args": {"text": text, "nice": nice}}
    if name == "drop":
        need(1)
        return {"name": name, "args": {"requirement": rest[0].upper()}}
    if name == "weight":
        need(2)
        try:
            weight = float(rest[1])
        except ValueError:
            raise InputError("usage: /weight RID N (N a number from 0 to 10)") from None
        return {"name": name, "args": {"requirement": rest[0].upper(), "weight": weight}}
    if name == "note":
        text = " ".join(rest).strip()
        if not text:
            raise InputError(f"usage: {USAGE[name]}")
        return {"name": name, "args": {"text": text}}
    if name == "shortlist":
        need(1)
        if not rest[0].isdigit() or int(rest[0]) < 1:
            raise InputError("usage: /shortlist N (N a whole number, 1 or more)")
        return {"name": name, "args": {"count": int(rest[0])}}
    need(1)  # export
    if rest[0].lower() not in ("csv", "html"):
        raise InputError("usage: /export csv|html")
    return {"name": name, "args": {"format": rest[0].lower()}}
