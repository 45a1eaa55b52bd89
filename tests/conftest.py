"""Shared test set-up: Qt runs offscreen, and each test gets its own KOIKOI_HOME."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import pytest
from hypothesis import settings

collect_ignore = ["atspi_reader.py"]
"""Run by Debian's python3 with pyatspi (tests/test_ui_atspi.py), not importable here."""

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The suite runs the engine from source, the reference, in this process and the koikoi
# processes it starts (and so collects the engine's doctests from the files they are in):
# tests/test_engine_compiled.py runs the compiled core (koikoi/engine/compiled.py) against
# it, and the engine's tests on it. (KOIKOI_PURE_ENGINE=0 runs tests/ on the compiled core;
# the doctests in koikoi/ cannot then be collected from the files the modules do not come from.)
os.environ.setdefault("KOIKOI_PURE_ENGINE", "1")

# Hypothesis's per-example deadline (200 ms) times the machine, not the code: a test process
# stalled for a moment by the other workers would fail a property that holds. Time is not
# what these properties are about (speed goals are benchmarks, docs/benchmarks.md).
settings.register_profile("koikoi", deadline=None)
settings.load_profile("koikoi")

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


@pytest.fixture(autouse=True)
def _koikoi_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Identity keys, pinned peers, settings and saves never touch the real user's files."""
    home = tmp_path_factory.mktemp("koikoi-home")
    monkeypatch.setenv("KOIKOI_HOME", str(home))
    return home


def user_environment(**extra: str) -> dict[str, str]:
    """The environment of a ``koikoi`` process the suite starts: this one's, but on the engine
    a user's runs, the compiled core where it is built (``.ci/setup`` builds it), not the
    source this process tests (a bug only the compiled core has shows in the command)."""
    env = {k: v for k, v in os.environ.items() if k != "KOIKOI_PURE_ENGINE"}
    return {**env, **extra}


def run_koikoi(
    *args: str, stdin: str | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run the real ``koikoi`` command (as installed: ``python -m koikoi``) as a user's runs
    (:func:`user_environment`)."""
    return subprocess.run(
        [sys.executable, "-m", "koikoi", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=REPO,
        env=user_environment(),
    )


class _EventLoop(Protocol):
    """What a qtbot wait runs through ``qt_api.exec``: a QEventLoop (or the application)."""

    def exit(self, returnCode: int = 0) -> None: ...


_QT_LOOPS: list[_EventLoop] = []
"""The Qt event loops the running test waits in (qtbot's waits), the innermost last."""
_TIMED_OUT: list[str] = []


@pytest.hookimpl(tryfirst=True)
def pytest_timeout_set_timer(item: pytest.Item, settings: Any) -> bool | None:
    """pytest-timeout's signal method, made safe for a test that waits in Qt's event loop.
    SIGALRM's handler runs at the next Python code, and in such a test that is a slot: the
    timer slot of a qtbot wait, whose loop then never quits (the failure raised before its
    ``quit()``), and pytest-qt keeps the failure as an exception in the event loop: the wait
    hung for good. Here, inside a wait, the handler quits the loops instead, and the failure
    is raised in the test once they are left (:func:`_qt_waits_end_at_the_timeout`)."""
    if settings.method != "signal" or threading.current_thread() is not threading.main_thread():
        return None
    import pytest_timeout

    message = pytest_timeout.PYTEST_FAILURE_MESSAGE % settings.timeout

    def handler(signum: int, frame: object) -> None:
        if not _QT_LOOPS:
            pytest_timeout.timeout_sigalrm(item, settings)  # raises here, in the test
            return
        writer = item.config.get_terminal_writer()
        pytest_timeout.dump_stacks(writer)
        writer.line(_windows_at_the_timeout())
        _TIMED_OUT.append(f"{message} (waiting in Qt's event loop)\n{_windows_at_the_timeout()}")
        for loop in _QT_LOOPS:
            loop.exit()

    def cancel() -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        _TIMED_OUT.clear()

    item.cancel_timeout = cancel  # type: ignore[attr-defined]  # pytest-timeout calls it
    signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, settings.timeout)
    return True


def _windows_at_the_timeout() -> str:
    """What every open window of the app was doing when the test ran out of time (a wait
    of a network match that never ends says which side waited for what)."""
    try:
        from PySide6.QtWidgets import QApplication

        from koikoi.ui.main_window import MainWindow
        from tests.ui_driver import describe

        lines = [
            f"window {n}: {describe(w)}"
            for n, w in enumerate(QApplication.topLevelWidgets())
            if isinstance(w, MainWindow)
        ]
    except Exception as exc:  # a diagnosis must not hide the timeout
        return f"(the windows could not be described: {exc!r})"
    return "\n".join(lines) or "(no window of the app was open)"


@pytest.fixture(autouse=True)
def _qt_waits_end_at_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every qtbot wait enters Qt's event loop through ``qt_api.exec``: its loop is noted for
    the timeout's handler, and a timeout met inside fails the test when the loop is left. A
    signal's Python handler runs only when Python code does: a timer ticks in the loop (a wait
    for a signal may run no Python code for its whole timeout)."""
    from PySide6.QtCore import QTimer
    from pytestqt.qt_compat import qt_api

    enter: Callable[[_EventLoop], object] = qt_api.exec  # pytest-qt leaves it unannotated
    tick = QTimer()
    tick.setInterval(100)
    tick.timeout.connect(lambda: None)  # Python runs, and with it a signal's handler

    def tracked(loop: _EventLoop) -> object:
        if _TIMED_OUT:
            pytest.fail(_TIMED_OUT[0])
        _QT_LOOPS.append(loop)
        tick.start()
        try:
            return enter(loop)
        finally:
            _QT_LOOPS.pop()
            if not _QT_LOOPS:
                tick.stop()
            if _TIMED_OUT and not _QT_LOOPS:
                pytest.fail(_TIMED_OUT[0])

    monkeypatch.setattr(qt_api, "exec", tracked)


@pytest.fixture(scope="session", autouse=True)
def _qapplication() -> object:
    """One QApplication for the run, made before any test can make a bare QGuiApplication
    (widgets need a QApplication; pictures are happy with either)."""
    from PySide6.QtWidgets import QApplication

    from koikoi.ui.common.collect import collect_on_the_ui_thread

    app = QApplication.instance() or QApplication([])
    _COLLECTOR.append(collect_on_the_ui_thread(app))  # as the app does (make_app)
    return app


_COLLECTOR: list[Any] = []
"""The app's collector of cycles on the UI thread (koikoi/ui/common/collect.py)."""


@pytest.fixture(autouse=True)
def _cycles_collected_here() -> Iterator[None]:
    """Between tests the main thread collects what passed the collector's thresholds: a test
    that never runs Qt's loop leaves its cycles to this, not to one of the next test's
    threads (a Qt object destroyed there can deadlock the UI thread)."""
    yield
    for collector in _COLLECTOR:
        collector.check()


@pytest.fixture(autouse=True)
def _english_after_each_test() -> Iterator[None]:
    """A test that switched the app to Japanese (by the menu, or failing before its own
    clean-up) leaves English behind: the next test in this worker reads its own words."""
    yield
    from koikoi.ui.common import names

    if names.current_language() != "en":
        names.install_translations("en")


@pytest.fixture
def japanese() -> Iterator[None]:
    """The app's words in Japanese for one test (English again after it)."""
    from koikoi.ui.common import names

    assert names.install_translations("ja")
    try:
        yield
    finally:
        names.install_translations("en")


KINDS: dict[str, tuple[str, ...]] = {
    "test_ai_simulate": ("processes",),
    "test_art": ("processes",),
    "test_ci_setup": ("processes",),
    "test_cli": ("processes", "sockets"),
    "test_engine_compiled": ("processes",),
    "test_golden_replays": ("processes",),
    "test_golden_scores": ("processes",),
    "test_hintbench": ("processes",),
    "test_net_address": ("processes", "sockets"),
    "test_net_bench": ("sockets",),
    "test_net_bothdial": ("sockets",),
    "test_net_clock": ("processes", "sockets"),
    "test_net_confirm": ("sockets",),
    "test_net_dealing_bench": ("processes",),
    "test_net_dealing_refusal": ("processes", "sockets"),
    "test_net_discovery": ("processes", "sockets"),
    "test_net_discovery_cli": ("processes", "sockets"),
    "test_net_discovery_flood": ("netns", "processes", "sockets"),
    "test_net_discovery_netns": ("netns", "processes", "sockets"),
    "test_net_faults": ("processes", "sockets"),
    "test_net_faults_crash": ("processes", "sockets"),
    "test_net_faults_netns": ("netns", "processes", "sockets"),
    "test_net_flood": ("processes", "sockets"),
    "test_net_fuzz": ("processes", "sockets"),
    "test_net_guess_report": ("sockets",),
    "test_net_guessing": ("processes", "sockets"),
    "test_net_hello_relay": ("sockets",),
    "test_net_hostile": ("processes", "sockets"),
    "test_net_joincode": ("processes", "sockets"),
    "test_net_nat": ("netns", "processes", "sockets"),
    "test_net_netns": ("netns", "processes", "sockets"),
    "test_net_nickname": ("processes", "sockets"),
    "test_net_pcp": ("sockets",),
    "test_net_play": ("processes", "sockets"),
    "test_net_policy_both": ("sockets",),
    "test_net_private_audit_cli": ("processes", "sockets"),
    "test_net_private_cli": ("processes",),
    "test_net_private_prober": ("processes", "sockets"),
    "test_net_record_failed_cli": ("processes", "sockets"),
    "test_net_record_keys": ("processes",),
    "test_net_record_signals": ("processes", "sockets"),
    "test_net_recordfile": ("sockets",),
    "test_net_restore": ("sockets",),
    "test_net_resume_app": ("processes", "sockets"),
    "test_net_room": ("sockets",),
    "test_net_room_rematch": ("sockets",),
    "test_net_toss_cli": ("processes", "sockets"),
    "test_net_transport": ("sockets",),
    "test_net_verify": ("processes",),
    "test_net_verify_ledger": ("processes", "sockets"),
    "test_packaging": ("processes",),
    "test_packaging_syslibs": ("netns", "processes"),
    "test_static": ("processes",),
    "test_sound_heard": ("processes",),
    "test_stats": ("processes",),
    "test_suite_timeout": ("processes",),
    "test_ui_app": ("processes",),
    "test_ui_atspi": ("atspi", "processes"),
    "test_ui_clock": ("sockets",),
    "test_ui_crash_resume": ("processes", "sockets"),
    "test_ui_crash_resume_mdns": ("sockets",),
    "test_ui_crash_resume_stranger": ("sockets",),
    "test_ui_dealing_refusal": ("sockets",),
    "test_ui_i18n": ("processes",),
    "test_ui_i18n_failures": ("netns", "processes", "sockets"),
    "test_ui_internet_processes": ("netns", "processes", "sockets"),
    "test_ui_joincode": ("sockets",),
    "test_ui_lan_processes": ("netns", "processes", "sockets"),
    "test_ui_lobby": ("processes", "sockets"),
    "test_ui_lobby_address": ("sockets",),
    "test_ui_lobby_join_wait": ("sockets",),
    "test_ui_lobby_resume": ("sockets",),
    "test_ui_mdns_redial": ("processes", "sockets"),
    "test_ui_netlink": ("processes", "sockets"),
    "test_ui_netlink_room_closing": ("sockets",),
    "test_ui_network": ("sockets",),
    "test_ui_pins": ("sockets",),
    "test_ui_prematch_toss": ("sockets",),
    "test_ui_private_audit": ("sockets",),
    "test_ui_private_dealing": ("sockets",),
    "test_ui_processes": ("processes",),
    "test_ui_record_failed": ("sockets",),
    "test_ui_screenshots": ("processes",),
    "test_ui_smoke_lan": ("processes",),
    "test_ui_stall": ("processes", "sockets"),
    "test_ui_stats": ("processes",),
    "test_ui_teyaku_toss": ("processes",),
    "test_ui_viewer": ("processes",),
}
"""What each module's tests need beyond Python, as markers (registered in pyproject.toml):
``sockets`` real sockets on the loopback (asyncio, Qt, mDNS), ``processes`` starts koikoi or
another program, ``netns`` network namespaces, ``atspi`` the accessibility bus. A module not
listed needs none: the engine, the sans-I/O protocol on an injected clock, widgets offscreen."""

SLOW: dict[str, tuple[str, ...]] = {
    "test_net_bench": (
        "test_bench_net_adds_the_keys_of_cli_md",
        "test_the_network_figures",
    ),
    "test_net_dealing": (
        "test_a_damaged_message_ends_the_dealing_with_one_named_line_never_a_traceback",
    ),
    "test_net_guess_report": (
        "test_a_real_host_flooded_by_one_address_writes_a_bounded_number_of_lines",
    ),
    "test_net_handshake": ("test_any_flipped_byte_fails_the_receiver",),
    "test_net_hello_relay": (
        "test_a_hello_turned_into_version_2_is_not_blamed_on_an_older_host",
        "test_a_rewritten_dealing_offer_is_refused_and_nothing_is_dealt",
        "test_a_version_3_hello_gets_the_update_line",
    ),
    "test_net_private_audit": ("test_nothing_done_with_the_last_seed_changes_a_finished_result",),
    "test_net_private_resume": (
        "test_a_private_match_cut_by_a_crash_is_restored_resumes_and_finishes",
        "test_a_private_match_cut_in_its_dealing_resumes_and_finishes",
        "test_a_private_match_goes_on_after_random_crashes",
        "test_a_private_match_goes_on_after_random_resets",
        "test_the_refusal_reaches_the_joiner_and_the_suspended_host_waits_on",
    ),
    "test_net_private_session": ("test_a_flipped_bit_in_any_dealing_message_names_its_sender",),
    "test_net_record_property": ("test_every_record_written_replays_as_verify_proves",),
    "test_net_recordfile": (
        "test_a_side_restored_from_its_files_resumes_and_the_end_leaves_no_sidecar",
    ),
    "test_net_toss_cards_first": (
        "test_neither_side_can_compute_the_oya_before_both_confirmed",
        "test_verify_rechecks_the_toss_after_the_cards",
    ),
    "test_ui_contrast": (
        "test_keyboard_focus_shows_3_to_1_on_the_start_screen_the_column_and_the_panels",
        "test_text_meets_aa_on_every_screen",
    ),
    "test_ui_controller": (
        "test_the_computers_time_cap_answers_with_a_legal_move",
        "test_whole_matches_keep_the_table_model_equal_to_the_engine",
    ),
    "test_ui_crash_resume_mdns": (
        "test_a_restored_host_announces_its_room_again_and_the_joiner_finds_it",
    ),
    "test_ui_crash_resume_stranger": (
        "test_a_stranger_s_wrong_password_leaves_the_restored_host_s_match_waiting",
    ),
    "test_ui_dealing_refusal": (
        "test_a_room_announced_as_version_2_is_not_dialled_unless_the_seed_is_allowed",
        "test_a_room_that_allows_the_seed_says_so_on_the_waiting_page_and_in_lists",
    ),
    "test_ui_display": (
        "test_high_contrast_text_meets_aaa",
        "test_reduced_motion_moves_cards_without_flying",
    ),
    "test_ui_display_polish": ("test_no_word_of_the_rules_contents_breaks_in_the_middle",),
    "test_ui_keyboard": ("test_a_whole_match_by_keyboard_alone",),
    "test_ui_layout": ("test_the_match_result_shows_every_round_or_scrolls_to_it",),
    "test_ui_lobby_resume": (
        "test_a_match_hosted_from_the_lobby_resumes_and_is_played_to_its_end",
    ),
    "test_ui_match": ("test_whole_match_by_mouse_clicks",),
    "test_ui_network": (
        "test_a_rematch_is_a_new_session_and_a_new_toss",
        "test_a_window_that_takes_over_after_the_peer_moved_still_shows_the_toss_then_the_table",
        "test_the_joiner_plays_a_round_by_keys",
        "test_the_peer_dropping_mid_round_is_told_in_words",
        "test_two_windows_play_a_whole_network_match_by_clicks",
    ),
    "test_ui_persist": ("test_a_match_resumed_at_koikoi_or_shobu_asks_again",),
    "test_ui_play": (
        "test_R5_5_the_drawn_cards_pace_is_a_display_option_and_stays",
        "test_koikoi_shobu_and_result_panels_show_the_engines_numbers",
        "test_the_window_stays_live_while_the_hard_computer_thinks",
    ),
    "test_ui_prematch_toss": ("test_a_host_leaving_after_the_toss_is_counted_and_shown_next_time",),
    "test_ui_private_audit": ("test_a_withheld_last_seed_is_said_beside_a_finished_result",),
    "test_ui_private_dealing": (
        "test_a_privately_dealt_match_cut_by_a_crash_is_offered_for_reconnecting",
        "test_a_room_announced_as_version_2_is_joined_with_the_joint_seed",
        "test_two_apps_play_a_whole_match_privately_dealt_and_both_records_verify",
    ),
    "test_ui_words": ("test_the_english_plural_forms_cover_every_count_in_the_code",),
    "test_ui_yaku_order": (
        "test_the_panels_and_the_score_column_name_each_yaku_in_the_players_language_first",
        "test_the_rules_and_the_calculator_name_each_yaku_in_the_players_language_first",
    ),
}
"""The tests (every case of each) that take 2 s or more on the 2-core machine, of those that
need no process, namespace or AT-SPI bus (docs/benchmarks.md, "The test suite"), marked ``slow``.
The everyday run leaves them out with the processes, namespaces and AT-SPI:
``pytest -m "not (processes or netns or atspi or slow)"`` (README, "Develop")."""


# -- the loopback's mDNS group, shared by every test process on this machine -----------------

MDNS_SHARED: tuple[str, ...] = (
    "test_cli", "test_net_dealing_refusal", "test_net_discovery_cli", "test_net_faults",
    "test_ui_a11y_hidden", "test_ui_crash_resume", "test_ui_crash_resume_mdns",
    "test_ui_crash_resume_stranger", "test_ui_dealing_refusal", "test_ui_i18n",
    "test_ui_i18n_failures", "test_ui_lan_processes", "test_ui_lobby", "test_ui_lobby_address",
    "test_ui_lobby_join_wait", "test_ui_lobby_resume", "test_ui_lobby_same_title",
    "test_ui_mdns_redial", "test_ui_pins", "test_ui_prematch_toss", "test_ui_private_dealing",
    "test_ui_screenshots", "test_ui_smoke_lan", "test_ui_stall", "test_ui_teyaku_toss",
)  # fmt: skip
"""The modules whose tests announce or look for rooms by mDNS on 127.0.0.1 (and the tests
they start), in a few rooms each."""

MDNS_ALONE: dict[str, tuple[str, ...] | None] = {
    "test_net_discovery": None,  # all of it: floods, forged rooms, full lists
    "test_ui_lobby": ("test_a_hostile_advertiser_leaves_the_lobby_responsive",),
}
"""The tests that fill the loopback's mDNS group with hundreds of rooms from 127.0.0.1, whose
share of any list (per source) they take: another test's room announced meanwhile is not
listed (``join --room`` failed so in a run of four workers). They run while no test of
:data:`MDNS_SHARED` does."""

MDNS_LOCKS = Path(os.environ.get("TMPDIR", "/tmp")) / "koikoi-tests-mdns"


def _mdns_use(item: pytest.Item) -> str | None:
    module, name = item.path.stem, getattr(item, "originalname", item.name)
    if module in MDNS_ALONE and (MDNS_ALONE[module] is None or name in (MDNS_ALONE[module] or ())):
        return "alone"
    return "shared" if module in MDNS_SHARED or module in MDNS_ALONE else None


@pytest.fixture(autouse=True)
def _loopback_mdns(request: pytest.FixtureRequest) -> Iterator[None]:
    """A readers-writer lock over the loopback's mDNS group, across the suite's workers (and
    any other run on this machine): a test of :data:`MDNS_ALONE` waits until the shared ones
    running have ended and new ones wait for it (a gate, so that it is not starved)."""
    use = _mdns_use(request.node)
    if use is None:
        yield
        return
    import fcntl

    MDNS_LOCKS.mkdir(parents=True, exist_ok=True)
    with open(MDNS_LOCKS / "gate", "a") as gate, open(MDNS_LOCKS / "group", "a") as group:
        fcntl.flock(gate, fcntl.LOCK_EX)
        try:
            fcntl.flock(group, fcntl.LOCK_EX if use == "alone" else fcntl.LOCK_SH)
        finally:
            if use == "shared":
                fcntl.flock(gate, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(group, fcntl.LOCK_UN)
            fcntl.flock(gate, fcntl.LOCK_UN)


def pytest_configure(config: pytest.Config) -> None:
    named = (*KINDS, *SLOW, *MDNS_SHARED, *MDNS_ALONE)
    gone = sorted({m for m in named if not (REPO / "tests" / f"{m}.py").exists()})
    if gone:
        raise pytest.UsageError(f"tests/conftest.py names modules that are not there: {gone}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        module = item.path.stem
        for kind in KINDS.get(module, ()):
            item.add_marker(kind)
        if getattr(item, "originalname", item.name) in SLOW.get(module, ()):
            item.add_marker("slow")
