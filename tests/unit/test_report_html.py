"""The batch report page in a real headless browser (Debian's chromium, driven by Playwright).

A run of six sample candidates is rendered to ``report.html`` and opened from disk with the
network cut off: every candidate is listed in rank order, the filters hide and show rows, and a
candidate opens to its verdicts with their verbatim quotes. The screenshots are kept under the
test's folder for a person to look at.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from agent.batch.service import open_run, save_outputs, work_run
from agent.batch.sources import collect_candidates
from agent.ingest.files import load_job
from agent.store import open_database
from tests.conftest import job_path
from tests.store.batch_helpers import SAMPLE_IDS, answering_service, resume_folder

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def report_page(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("report")
    with open_database(f"sqlite:///{root / 'store.db'}") as database:
        service = answering_service(database)
        found = collect_candidates([str(resume_folder(root))])
        state = open_run(service, load_job(job_path("job_008")), found, name="html test")
        work_run(service, state.run_id)
        return save_outputs(database, state.run_id, root / "out")["html"]


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail("chromium is not installed: run `make browser`", pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


def _open(browser, page_path: Path):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, offline=True)
    requests: list[str] = []
    page = context.new_page()
    page.on("request", lambda request: requests.append(request.url))
    page.goto(page_path.as_uri())
    return page, requests


def test_the_report_lists_every_candidate_in_rank_order_offline(browser, report_page):
    page, requests = _open(browser, report_page)
    rows = page.locator("details.cand")
    assert rows.count() == len(SAMPLE_IDS)
    scores = [int(s.split()[0]) for s in page.locator("details.cand .score").all_inner_texts()]
    assert scores == sorted(scores, reverse=True)
    names = page.locator("details.cand .who b").all_inner_texts()
    assert sorted(names) == sorted(SAMPLE_IDS)
    assert requests == [report_page.as_uri()]  # nothing fetched but the page itself
    page.screenshot(path=str(report_page.with_name("report.png")), full_page=True)


def test_filters_show_only_that_recommendation(browser, report_page):
    page, _ = _open(browser, report_page)
    buttons = page.locator(".filters button[data-filter]:not([data-filter=all])")
    assert buttons.count() >= 1
    for index in range(buttons.count()):
        button = buttons.nth(index)
        wanted = button.get_attribute("data-filter")
        button.click()
        shown = page.locator("details.cand:visible")
        expected = int(button.inner_text().rsplit("(", 1)[1].rstrip(")"))
        assert shown.count() == expected
        assert {shown.nth(i).get_attribute("data-rec") for i in range(shown.count())} == {wanted}
    page.locator(".filters button[data-filter=all]").click()
    assert page.locator("details.cand:visible").count() == len(SAMPLE_IDS)
    page.fill("#find", SAMPLE_IDS[1])
    assert page.locator("details.cand:visible .who b").all_inner_texts() == [SAMPLE_IDS[1]]


def test_a_candidate_opens_to_its_verdicts_and_quotes(browser, report_page):
    page, _ = _open(browser, report_page)
    first = page.locator("details.cand").first
    verdicts = first.locator("table.verdicts tr")
    assert not verdicts.first.is_visible()  # closed until clicked
    first.locator("summary").click()
    assert verdicts.count() >= 1 and verdicts.first.is_visible()
    quotes = first.locator("blockquote").all_inner_texts()
    assert quotes, "the top candidate shows no quote"
    name = first.locator(".who b").inner_text()
    profile = Path(job_path("job_008")).parents[1] / "candidates" / f"{name}.md"
    text = " ".join(profile.read_text().split())
    for quote in quotes:  # verbatim from the profile, as rendered
        assert quote.strip("“”") in text
    first.screenshot(path=str(report_page.with_name("candidate.png")))


def test_a_profile_that_steers_the_screener_is_flagged_on_its_card(browser, tmp_path):
    folder = resume_folder(tmp_path, ids=("cand_033",))
    corpus = Path(__file__).resolve().parents[1] / "fixtures" / "injection"
    shutil.copy(corpus / "fake_chatml_system.md", folder / "cand_056_injected.md")
    with open_database(f"sqlite:///{tmp_path / 'store.db'}") as database:
        service = answering_service(database)
        found = collect_candidates([str(folder)])
        state = open_run(service, load_job(job_path("job_008")), found, name="flag test")
        work_run(service, state.run_id)
        page_path = save_outputs(database, state.run_id, tmp_path / "out")["html"]
    page, _ = _open(browser, page_path)
    card = page.locator("details.cand", has_text="cand_056_injected")
    card.locator("summary").click()
    flag = card.locator("p.flag")
    assert flag.is_visible()
    assert "fake chat-role or prompt tags" in flag.inner_text()
    assert "name 1" in card.locator("p.by", has_text="Blinded").inner_text()
    assert page.locator("p.flag").count() == 1  # the clean profile is not flagged
    card.screenshot(path=str(tmp_path / "flagged.png"))
    shutil.copy(tmp_path / "flagged.png", "/tmp/flagged.png")
