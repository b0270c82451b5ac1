"""The API's /docs page in a real headless browser, with every request off 127.0.0.1 refused:
Swagger UI's files come from the service itself, and the page lists the operations."""

from __future__ import annotations

import shutil

import pytest

from tests.api.conftest import serve

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def test_the_docs_page_renders_offline(tmp_path):
    from playwright.sync_api import sync_playwright

    if not shutil.which(CHROMIUM):
        pytest.fail("chromium is not installed: run `make browser`", pytrace=False)
    outside: list[str] = []
    with serve(f"sqlite:///{tmp_path / 'db'}") as api, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 1400})

            def only_local(route):
                if route.request.url.startswith(api.url):
                    route.continue_()
                else:
                    outside.append(route.request.url)
                    route.abort()

            context.route("**/*", only_local)
            page = context.new_page()
            page.goto(f"{api.url}/docs")
            page.wait_for_selector(".opblock-summary-path", timeout=20_000)
            paths = page.locator(".opblock-summary-path").all_inner_texts()
            page.screenshot(path=str(tmp_path / "docs.png"), full_page=False)
            title = page.locator(".info .title").inner_text()
        finally:
            browser.close()
    assert outside == []
    assert "Hiring Assistant" in title
    for expected in ("/v1/analyses", "/v1/analyses/{ref}", "/v1/batches", "/healthz"):
        assert expected in paths
    assert (tmp_path / "docs.png").stat().st_size > 10_000
