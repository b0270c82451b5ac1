"""Greenhouse, inbound: check a webhook's signature, read the application, fetch what it points at.

Greenhouse signs each webhook's raw body with HMAC-SHA256 and the shared secret, in a
``Signature: sha256 <hex>`` header. A "Candidate has submitted application" event
(``action: new_candidate_application``) carries the application with its candidate, the
candidate's attachments (the resume as a URL) and the jobs applied to. The job's posting and the
resume are fetched from the configured ATS base URL only: a URL elsewhere is refused, so a
forged payload cannot make the service fetch from anywhere else.
"""

from __future__ import annotations

import hashlib
import hmac
import html
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from agent.errors import InputError, UpstreamError
from agent.ingest.documents import PDF_MAGIC, ZIP_MAGIC, docx_text, pdf_text
from agent.ingest.inputs import candidate_from_text, job_from_text
from schemas.inputs import CandidateProfile, JobPosting

MAX_DOWNLOAD_BYTES = 10_000_000
ANALYZED_ACTIONS = ("new_candidate_application", "application_updated")


def signature_ok(body: bytes, header: str | None, secret: str) -> bool:
    """True when ``header`` is ``sha256 <hex>`` of the body's HMAC-SHA256 with ``secret``."""
    if not header or not secret:
        return False
    scheme, _, given = header.strip().partition(" ")
    if scheme.lower() != "sha256" or not given:
        return False
    expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, given.strip().lower())


def sign(body: bytes, secret: str) -> str:
    """The ``Signature`` header Greenhouse would send for ``body`` (for tests and tooling)."""
    return "sha256 " + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class GreenhouseApplication:
    """What an analysis needs from an application webhook."""

    application_id: int
    candidate_id: int
    candidate_name: str | None
    job_id: int
    job_name: str | None
    resume_url: str | None

    @property
    def profile_id(self) -> str:
        """The candidate's id in our store."""
        return f"greenhouse-{self.candidate_id}"


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputError(f"Greenhouse webhook: {where} is missing or not an object")
    return value


def _id(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str) or not str(value).isdigit():
        raise InputError(f"Greenhouse webhook: {where} is missing or not a number")
    return int(value)


def parse_application(event: Any) -> GreenhouseApplication:
    """The application in a webhook body; InputError (one line) for any other shape."""
    event = _object(event, "the body")
    action = event.get("action")
    if action not in ANALYZED_ACTIONS:
        raise InputError(
            f"Greenhouse webhook: action {action!r} is not analyzed "
            f"(expected one of {', '.join(ANALYZED_ACTIONS)})"
        )
    payload = _object(event.get("payload"), "payload")
    application = _object(payload.get("application"), "payload.application")
    candidate = application.get("candidate") or payload.get("candidate")
    candidate = _object(candidate, "payload.application.candidate")
    jobs = application.get("jobs") or payload.get("jobs") or []
    if not isinstance(jobs, list) or not jobs:
        raise InputError("Greenhouse webhook: the application names no job")
    job = _object(jobs[0], "payload.application.jobs[0]")
    attachments = candidate.get("attachments") or []
    resumes = [
        a
        for a in attachments
        if isinstance(a, dict) and a.get("type") == "resume" and isinstance(a.get("url"), str)
    ]
    name = " ".join(
        str(candidate.get(part)).strip()
        for part in ("first_name", "last_name")
        if candidate.get(part)
    )
    return GreenhouseApplication(
        application_id=_id(application.get("id"), "payload.application.id"),
        candidate_id=_id(candidate.get("id"), "the candidate's id"),
        candidate_name=name or None,
        job_id=_id(job.get("id"), "the job's id"),
        job_name=job.get("name") if isinstance(job.get("name"), str) else None,
        resume_url=resumes[-1]["url"] if resumes else None,
    )


class GreenhouseClient:
    """Reads job posts and resumes from the ATS at ``base_url`` (Harvest-style paths)."""

    def __init__(self, base_url: str, *, api_key: str | None = None, timeout_s: float = 30.0):
        self.base_url = base_url.rstrip("/") + "/"
        auth = (api_key, "") if api_key else None
        self._client = httpx.Client(timeout=timeout_s, auth=auth, follow_redirects=False)

    def close(self) -> None:
        self._client.close()

    def _get(self, url: str, what: str) -> httpx.Response:
        target = urljoin(self.base_url, url)
        base = urlsplit(self.base_url)
        parts = urlsplit(target)
        if (parts.scheme, parts.netloc) != (base.scheme, base.netloc):
            raise InputError(f"Greenhouse {what} URL is not on the configured ATS ({base.netloc})")
        try:
            response = self._client.get(target)
        except httpx.HTTPError as exc:
            raise UpstreamError(
                f"could not fetch the {what} from the ATS: {type(exc).__name__}"
            ) from None
        if response.status_code != 200:
            raise UpstreamError(f"the ATS answered {response.status_code} for the {what}")
        if len(response.content) > MAX_DOWNLOAD_BYTES:
            raise InputError(f"the {what} from the ATS is too large")
        return response

    def job(self, job_id: int) -> JobPosting:
        """The job's post: its title and content (HTML, turned into Markdown)."""
        data = self._get(f"v1/jobs/{job_id}/job_post", "job post").json()
        if not isinstance(data, dict) or not isinstance(data.get("content"), str):
            raise InputError(f"the ATS's job post for job {job_id} has no content")
        title = str(data.get("title") or f"Greenhouse job {job_id}")
        markdown = f"# {title}\n\n{html_to_markdown(data['content'])}"
        return job_from_text(markdown, where=f"Greenhouse job {job_id}", fallback_title=title)

    def resume(self, application: GreenhouseApplication) -> CandidateProfile:
        if application.resume_url is None:
            raise InputError(
                f"Greenhouse application {application.application_id} has no resume attachment"
            )
        data = self._get(application.resume_url, "resume").content
        where = f"Greenhouse application {application.application_id}'s resume"
        if data.startswith(PDF_MAGIC):
            text = pdf_text(data, where)
        elif data.startswith(ZIP_MAGIC):
            text = docx_text(data, where)
        else:
            try:
                text = data.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise InputError(f"{where} is neither text, PDF nor Word") from None
        return candidate_from_text(
            text,
            candidate_id=application.profile_id,
            where=where,
            display_name=application.candidate_name,
        )


def html_to_markdown(content: str) -> str:
    """A job post's HTML (Greenhouse escapes it once more) as Markdown, headings and lists kept."""
    import html2text

    converter = html2text.HTML2Text()
    converter.body_width = 0
    converter.ignore_images = True
    converter.ignore_links = True
    raw = html.unescape(content) if "&lt;" in content else content
    return converter.handle(raw).strip()
