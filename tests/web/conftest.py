"""Browser tests: a real server in a thread, Debian's Chromium through Playwright.

Fixtures
- ``live_server`` (per test): :func:`create_app` on a fresh SQLite file with a
  :class:`ManualClock` (from :data:`CLOCK_START`), a :class:`CardScript` (so the test-only
  ``/api/test/...`` routes are there) and reproducible seeds (:class:`SeedSource`), served by
  uvicorn on a free port of 127.0.0.1 in a background thread. See :class:`LiveServer`
  (``.url``, ``.clock``, ``.cards``, ``.seeds``, ``.app``, ``.server``, ``.call``, ``.run``,
  ``.tick``, ``.push_cards``).
- ``browser`` (per session): headless Chromium, ``/usr/bin/chromium`` only (never a browser
  download). Missing, the browser tests are skipped with that reason, except in CI (``CI``
  set, as ``.ci/run`` sets it), where they fail. Tests using it carry the ``browser`` marker.
- ``new_page(size="desktop" | "phone", base_url=None, **context_options)``: a page in a fresh
  browser context (its own cookies) at 1366x768 or 360x740 (phone: mobile, touch, 2x pixels),
  reduced motion unless told otherwise, closed after the test. Its script errors are collected
  (:func:`page_errors`); when the test fails, each page's last view is saved as
  ``artifacts/screenshots/failed-<test>-<n>.png``.

Helpers: :func:`screenshot` (``artifacts/screenshots/<name>.png``, a folder CI keeps),
:func:`register` and :func:`sign_in` (through the API with the page's own request context, so
its cookie is set), :func:`api_get` / :func:`api_post` (as the page's user),
:func:`steer_online_round` (choose the next Online deal through its committed seed: the round
stays provably fair). Scripted Casino rounds: ``tests/web/play.py``; traffic recording:
``tests/web/traffic.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import os
import re
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest
import uvicorn
from sqlalchemy import select

from twentyone.cards import Card, parse_cards
from twentyone.clock import ManualClock
from twentyone.fairness import commitment, shuffled_shoe
from twentyone.server.app import create_app
from twentyone.server.config import CardScript, ServerConfig, fast_hasher
from twentyone.server.testing import tick_services
from twentyone.storage.models import FairnessSeed, User

T = TypeVar("T")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 360, "height": 740}}
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
#: The server clock's start: an epoch-like time (2027), so that dates on pages look real.
CLOCK_START = 1_800_000_000.0
#: How long a call into the server's loop or its start may take before the test fails.
SERVER_TIMEOUT = 30.0
PASSWORD = "password123"

_server_numbers = itertools.count(1)


class SeedSource:
    """Reproducible server seeds that remember what they gave out (tests may look one up by
    its commitment, as the player would once it is revealed)."""

    def __init__(self, prefix: int) -> None:
        self._counter = itertools.count(prefix * 1_000_000)
        self.given: list[str] = []
        self._lock = threading.Lock()

    def __call__(self) -> str:
        with self._lock:
            # Hex like a real seed's (a screenshot shows it), reproducible from the counter.
            seed = hashlib.sha256(f"live-server-seed-{next(self._counter)}".encode()).hexdigest()
            self.given.append(seed)
        return seed

    def by_commitment(self, wanted: str) -> str:
        for seed in self.given:
            if commitment(seed) == wanted:
                return seed
        raise LookupError(f"no seed given out has the commitment {wanted}")


@dataclass
class LiveServer:
    """A running server: its address, its clock, its card script and its loop."""

    url: str
    clock: ManualClock
    cards: CardScript
    seeds: SeedSource
    app: Any
    loop: asyncio.AbstractEventLoop
    _uvicorn: uvicorn.Server = field(repr=False)
    _thread: threading.Thread = field(repr=False)

    @property
    def server(self) -> Any:
        """The twentyone :class:`~twentyone.server.context.Server` (``app.state.server``)."""
        return self.app.state.server

    def call(self, coro_fn: Callable[..., Awaitable[T]], *args: Any) -> T:
        """Run ``coro_fn(*args)`` on the server's event loop and return its result."""

        async def run() -> T:
            return await coro_fn(*args)

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(SERVER_TIMEOUT)

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run a coroutine made here on the server's event loop."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(SERVER_TIMEOUT)

    def tick(self, seconds: float = 0.0) -> float:
        """Advance the clock by ``seconds`` and process every deadline now due (on the
        server's loop, as ``POST /api/test/tick`` does); the new server time."""

        async def advance() -> float:
            self.clock.advance(seconds)
            await tick_services(self.server)
            return self.clock.now()

        return self.call(advance)

    def push_cards(self, table: str, cards: str | list[Card]) -> list[Card]:
        """Queue a deck order for ``table`` ("online" or a Casino table id)."""
        parsed = parse_cards(cards) if isinstance(cards, str) else list(cards)

        async def push() -> None:  # on the server's loop: no race with a deal taking cards
            self.cards.push(table, parsed)

        self.call(push)
        return parsed

    def stop(self) -> None:
        self._uvicorn.should_exit = True
        self._thread.join(SERVER_TIMEOUT)


def _free_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.set_inheritable(True)
    return sock


def start_live_server(db_path: Path, **config: Any) -> LiveServer:
    """Start a server on ``db_path`` (see the module); ``config`` overrides ServerConfig fields."""
    clock = ManualClock(CLOCK_START)
    script = CardScript()
    seeds = SeedSource(next(_server_numbers))
    client_numbers = itertools.count(1)
    settings: dict[str, Any] = {
        "db_url": f"sqlite:///{db_path}",
        "clock": clock,
        "hasher": fast_hasher(),
        "server_seeds": seeds,
        "client_seeds": lambda: f"client-seed-{next(client_numbers)}",
        "card_script": script,
        **config,
    }
    app = create_app(ServerConfig(**settings))
    sock = _free_socket()
    port = sock.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            log_level="warning",
            lifespan="on",
            access_log=False,
            ws_per_message_deflate=False,  # as `twentyone serve`
            timeout_graceful_shutdown=2,
        )
    )
    loop = asyncio.new_event_loop()
    failed: list[BaseException] = []

    def serve() -> None:
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(server.serve(sockets=[sock]))
        except BaseException as error:  # seen by the waiting test below
            failed.append(error)
        finally:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()
            sock.close()

    thread = threading.Thread(target=serve, name=f"live-server-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + SERVER_TIMEOUT
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        thread.join(0.01)  # wakes up early if the server thread ends (failed to start)
    if not server.started:
        server.should_exit = True
        thread.join(SERVER_TIMEOUT)
        raise RuntimeError(f"the live server did not start: {failed or 'timed out'}")
    return LiveServer(
        url=f"http://127.0.0.1:{port}",
        clock=clock,
        cards=script,
        seeds=seeds,
        app=app,
        loop=loop,
        _uvicorn=server,
        _thread=thread,
    )


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    running = start_live_server(tmp_path / "live.db")
    try:
        yield running
    finally:
        running.stop()


# ------------------------------------------------------------------------------ browser
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here that drives the browser carries the ``browser`` marker
    (``-m "not browser"`` leaves them out)."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


def _why_no_browser() -> str | None:
    if not CHROMIUM.exists():
        return f"Debian's Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    why = _why_no_browser()
    if why is not None:
        if os.environ.get("CI"):
            pytest.fail(f"browser tests must run in CI: {why}")
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, _loop_marked_running_only_in_calls():
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@contextlib.contextmanager
def _loop_marked_running_only_in_calls() -> Iterator[None]:
    """Playwright's synchronous API runs its event loop in a greenlet of the main thread and
    leaves that loop marked as running in the thread between its calls (it restores the mark
    after each wait). A later test that runs a loop of its own (any anyio test, in the same
    process under xdist) would then fail with "Cannot run the event loop while another loop
    is running". So, while the session's browser is open, each synchronous call marks the
    loop running for its own duration only, and the mark is cleared in between."""
    from playwright._impl import _sync_base

    original = _sync_base.wait_for_future

    def wait_for_future(loop: asyncio.AbstractEventLoop, fiber: Any, future: Any) -> None:
        __tracebackhide__ = True
        previous = asyncio.events._get_running_loop()  # None, or the loop in a callback
        asyncio.events._set_running_loop(loop)
        try:
            original(loop, fiber, future)
        finally:
            asyncio.events._set_running_loop(previous)

    global _PLAYWRIGHT_LOOP
    loop = asyncio.events._get_running_loop()  # marked by sync_playwright() on its way in
    _sync_base.wait_for_future = wait_for_future  # type: ignore[assignment]
    asyncio.events._set_running_loop(None)
    # Between calls Playwright schedules its own tasks (``page.on`` subscribes with
    # ``asyncio.ensure_future``) on the thread's current loop: that must be its loop, also
    # after an anyio test's ``asyncio.run`` has set the current loop to None (see
    # ``_playwright_loop_is_current``).
    _PLAYWRIGHT_LOOP = loop
    asyncio.set_event_loop(loop)
    try:
        yield
    finally:
        _PLAYWRIGHT_LOOP = None
        _sync_base.wait_for_future = original
        asyncio.events._set_running_loop(loop)  # as sync_playwright() expects on its way out


_PLAYWRIGHT_LOOP: asyncio.AbstractEventLoop | None = None


@pytest.fixture(autouse=True)
def _playwright_loop_is_current() -> None:
    """Each browser test starts with Playwright's loop as the thread's current loop (a test
    of another folder run before it in the same process may have cleared it)."""
    if _PLAYWRIGHT_LOOP is not None:
        asyncio.set_event_loop(_PLAYWRIGHT_LOOP)


_PAGE_ERRORS: dict[int, list[str]] = {}


def page_errors(page: Any) -> list[str]:
    """The uncaught script errors and console errors of ``page`` so far."""
    return _PAGE_ERRORS.get(id(page), [])


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call":
        item.stash[_FAILED] = report.failed
    return report


_FAILED = pytest.StashKey[bool]()


@pytest.fixture
def new_page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Callable[..., Any]]:
    """``new_page(size="desktop", base_url=None, **context_options)``: a page in a fresh
    context (see the module)."""
    contexts: list[Any] = []

    def make(size: str = "desktop", base_url: str | None = None, **context_options: Any) -> Any:
        options: dict[str, Any] = {"viewport": SIZES[size], "reduced_motion": "reduce"}
        if base_url is not None:
            options["base_url"] = base_url
        if size == "phone":
            options.update(is_mobile=True, has_touch=True, device_scale_factor=2)
        options.update(context_options)
        context = browser.new_context(**options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        errors = _PAGE_ERRORS.setdefault(id(page), [])
        page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
        page.on(
            "console",
            lambda message: (
                errors.append(f"console: {message.text} at {message.location.get('url')}")
                if message.type == "error"
                else None
            ),
        )
        return page

    try:
        yield make
    finally:
        failed = request.node.stash.get(_FAILED, False)
        number = itertools.count(1)
        for context in contexts:
            for page in context.pages:
                if failed:
                    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", request.node.name)
                    with contextlib.suppress(Exception):  # the page may be gone
                        screenshot(page, f"failed-{name}-{next(number)}")
                _PAGE_ERRORS.pop(id(page), None)
            context.close()


def screenshot(page: Any, name: str, full_page: bool = True) -> Path:
    """Save ``artifacts/screenshots/<name>.png`` (a folder CI keeps) and return its path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    if full_page:  # from the top: a sticky header is drawn where the page is scrolled to
        page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    return path


def register(page: Any, live: LiveServer, name: str, password: str = PASSWORD) -> dict[str, Any]:
    """Open an account through the API with the page's own context (its cookie is set)."""
    answer = page.context.request.post(
        f"{live.url}/api/accounts", data={"name": name, "password": password}
    )
    assert answer.status == 201, answer.text()
    return dict(answer.json())


def sign_in(page: Any, live: LiveServer, name: str, password: str = PASSWORD) -> dict[str, Any]:
    """Sign the page's context in through the API (the session cookie is set)."""
    answer = page.context.request.post(
        f"{live.url}/api/session", data={"name": name, "password": password}
    )
    assert answer.status == 200, answer.text()
    return dict(answer.json())


def steer_online_round(
    live: LiveServer, name: str, wanted: Callable[[list[Card]], bool]
) -> list[Card]:
    """Make the player's committed next Online seed one whose shoe satisfies ``wanted`` and
    return that shoe (dealing order of one box: player, dealer up, player, dealer hole, then
    the draws). The round stays provably fair: its cards are its seeds' cards, so it verifies.
    Seeds are tried in a fixed order: the same ``wanted`` always gets the same seed."""

    async def steer() -> list[Card]:
        async with live.server.write() as session:
            user = await session.scalar(select(User).where(User.name_key == name.casefold()))
            assert user is not None, f"no account {name!r}"
            for index in itertools.count(1):
                seed = hashlib.sha256(f"steered-seed-{index}".encode()).hexdigest()
                shoe = shuffled_shoe(seed, user.client_seed, user.nonce, 6)
                if wanted(shoe):
                    break
            pending = await session.scalar(
                select(FairnessSeed).where(
                    FairnessSeed.user_id == user.id, FairnessSeed.used_at.is_(None)
                )
            )
            if pending is None:
                pending = FairnessSeed(user_id=user.id, created_at=live.clock.now())
                session.add(pending)
            pending.server_seed, pending.commitment = seed, commitment(seed)
            live.seeds.given.append(seed)
            return shoe

    return live.call(steer)


def api_get(page: Any, live: LiveServer, path: str) -> Any:
    """``GET path`` as the page's signed-in user; the parsed JSON (asserts a 2xx)."""
    answer = page.context.request.get(f"{live.url}{path}")
    assert answer.ok, f"GET {path}: {answer.status} {answer.text()}"
    return answer.json()


def api_post(page: Any, live: LiveServer, path: str, body: Any = None) -> Any:
    """``POST path`` as the page's signed-in user; the parsed JSON (asserts a 2xx)."""
    answer = page.context.request.post(f"{live.url}{path}", data=body)
    assert answer.ok, f"POST {path}: {answer.status} {answer.text()}"
    return answer.json()
