"""The Teachers Guide in a real browser: every link on the page opens something.

A Voilà page serves notebooks, not the repository's files (a link to ``rules.md`` answered 403,
one to ``scripts/teaching_answers.py`` 404).  Here each link of the rendered guide is followed:
an in-page link must scroll the page to an element with that id, any other link (outside the
web) must answer 200."""

from __future__ import annotations

from urllib.parse import unquote, urljoin, urlparse

import pytest
from test_browser import PAGE_TIMEOUT_MS, VoilaServer, open_page

pytestmark = pytest.mark.browser

RENDERED = "() => window.pushluckRendered === true && document.readyState !== 'loading'"
#: The scrolling container of Voilà's page (it scrolls inside, not the window).
CONTAINER = """() => { let n = document.querySelector('h1');
  while (n && !(n.scrollHeight > n.clientHeight + 5
                && getComputedStyle(n).overflowY === 'auto')) n = n.parentElement;
  return n; }"""


@pytest.fixture(scope="module")
def server(shared_voila: VoilaServer) -> VoilaServer:
    """The worker's shared server (tests/conftest.py), as other browser files use it."""
    return shared_voila


def test_every_link_on_the_guide_opens_something(browser, server) -> None:
    page, watch = open_page(browser, server, "Teachers_Guide.ipynb", "text=Before class")
    try:
        page.wait_for_function(RENDERED, timeout=PAGE_TIMEOUT_MS)
        links = page.eval_on_selector_all(
            ".jp-RenderedMarkdown a[href]",
            "els => els.filter(e => !e.classList.contains('jp-InternalAnchorLink'))"
            ".map(e => [e.innerText, e.getAttribute('href')])")
        assert any(text == "rules.md" for text, _ in links), links
        for text, href in links:
            if href.startswith(("http://", "https://", "mailto:")):
                continue
            if href.startswith("#"):
                target = unquote(href[1:])
                assert page.evaluate("id => !!document.getElementById(id)", target), href
                page.evaluate(f"() => {{ ({CONTAINER})().scrollTop = 0; }}")
                page.wait_for_timeout(200)
                page.evaluate("h => [...document.querySelectorAll('.jp-RenderedMarkdown a')]"
                              ".find(a => a.getAttribute('href') === h && !a.classList"
                              ".contains('jp-InternalAnchorLink')).click()", href)
                page.wait_for_timeout(500)
                top = page.evaluate("id => document.getElementById(id)"
                                    ".getBoundingClientRect().top", target)
                # on screen (the page's last headings cannot reach its top)
                height = page.viewport_size["height"]
                assert 0 <= top < height - 40, (text, href, top)
                assert len(page.context.pages) == 1, "the link opened another tab"
                continue
            url = urljoin(server.url("Teachers_Guide.ipynb"), href)
            assert urlparse(url).hostname == "127.0.0.1", href
            response = page.request.get(url, timeout=PAGE_TIMEOUT_MS)
            assert response.status == 200, (text, href, response.status)
        assert watch.page_errors == [], watch.page_errors[:3]
        assert watch.console_errors == [], (watch.console_errors[:3], watch.requests[-5:])
    finally:
        page.close()
