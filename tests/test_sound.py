"""The table's sounds: heard for the events the narration tells, through the real window;
never a device offscreen; volume and mute kept in the settings; a device that cannot open
leaves the app silent."""

from __future__ import annotations

import logging
import random
import threading
from typing import Any

import miniaudio
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from koikoi.engine.match import Settings
from koikoi.ui.common.settings import SOUND_ON, SOUND_VOLUME, AppSettings
from koikoi.ui.main_window import MainWindow
from koikoi.ui.match.matchview import Mode
from koikoi.ui.sound import clips as sound
from koikoi.ui.sound.clips import Clip, load_clips
from koikoi.ui.sound.mixer import MiniaudioBackend
from koikoi.ui.sound.sounds import SilentBackend, Sounds, open_backend, open_sounds, why_silent
from tests.ui_driver import FAST, play_by_clicks


class Heard:
    """A backend that keeps what it was asked to play (by name) and plays nothing."""

    def __init__(self, log: list[str] | None = None) -> None:
        self.names: list[str] = []
        self.log = log
        self.closed = False

    def play(self, clip: Clip, gain: float) -> None:
        self.names.append(clip.name)
        if self.log is not None:
            self.log.append(f"♪{clip.name}")

    def close(self) -> None:
        self.closed = True


def _window(qtbot: Any, backend: Any) -> MainWindow:
    window = MainWindow(timings=FAST, sounds=Sounds(backend))
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    return window


def test_a_practice_match_is_heard_as_it_is_told(qtbot):
    log: list[str] = []
    heard = Heard(log)
    window = _window(qtbot, heard)
    window.controller.said.connect(log.append)
    window.start_practice(Settings(6, True), "easy", True, b"sound-seed-1")
    play_by_clicks(qtbot, window, random.Random(7), koikoi_rate=1.0)
    assert window.controller.mode is Mode.MATCH_OVER
    assert set(heard.names) == set(sound.NAMES) - {sound.CLOCK}  # the clock: network only
    assert heard.names[-1] == sound.MATCH_END
    # each sound comes right after its sentence, from the same event
    said_before = {
        sound.CARD: ("You played", "The computer played"),
        sound.CAPTURE: ("You took", "The computer took"),
        sound.DRAW: ("You turned", "The computer turned"),
        sound.YAKU: ("You hold", "The computer holds"),
        sound.KOIKOI: ("You called 「こいこい」", "The computer called 「こいこい」"),
        sound.TURN: ("Your turn",),
        sound.MATCH_END: ("The match is over",),
    }
    for i, line in enumerate(log):
        if line.startswith("♪"):
            assert log[i - 1].startswith(said_before[line[1:]]), log[i - 1 : i + 1]
    spoken_turns = sum(1 for line in log if line.startswith("Your turn"))
    assert heard.names.count(sound.TURN) == spoken_turns > 0


def test_a_resumed_match_is_told_again_but_not_heard_again(qtbot):
    heard = Heard()
    window = _window(qtbot, heard)
    window.start_practice(Settings(6, True), "easy", True, b"sound-seed-2")
    play_by_clicks(
        qtbot,
        window,
        random.Random(3),
        until=lambda w: len(heard.names) > 6 and w.controller.mode is Mode.PLAY,
    )
    window.go_home()
    heard.names.clear()
    told: list[str] = []
    window.controller.said.connect(told.append)
    assert window.resume()
    qtbot.waitUntil(lambda: window.controller.mode is Mode.PLAY)
    assert len(told) > 3 and heard.names == []


def test_offscreen_never_opens_the_device(qtbot, monkeypatch, caplog):
    opened: list[object] = []
    monkeypatch.setattr(miniaudio, "PlaybackDevice", lambda *a, **k: opened.append(a))
    monkeypatch.delenv("KOIKOI_SOUND", raising=False)
    caplog.set_level(logging.INFO)
    window = MainWindow(timings=FAST)  # as the app makes it, with its own sounds
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    assert isinstance(window.sounds.backend, SilentBackend)
    assert "offscreen" in window.sounds.backend.reason
    window.start_practice(Settings(6, True), "easy", True, b"sound-seed-1")
    play_by_clicks(qtbot, window, random.Random(7), until=lambda w: w.controller.mode is Mode.PLAY)
    assert opened == []
    assert "no sound: the offscreen platform" in caplog.text


def test_koikoi_sound_0_and_1(monkeypatch):
    monkeypatch.setenv("KOIKOI_SOUND", "0")
    assert why_silent() == "KOIKOI_SOUND=0"
    assert isinstance(open_backend(), SilentBackend)
    monkeypatch.setenv("KOIKOI_SOUND", "1")  # asked for, even offscreen
    assert why_silent() is None


def test_the_real_device_plays_a_clip_to_its_end(qtbot):
    backend = MiniaudioBackend(sound.RATE, device_factory=_null_device)
    try:
        assert backend.opened.wait(10) and backend.failed is None
        clips = load_clips()
        sounds = Sounds(backend, clips, volume=70)
        start = backend.frames_out
        assert sounds.play(sound.CARD) and sounds.play(sound.CAPTURE)  # two at once: mixed
        longest = max(len(clips[n].samples) // 2 for n in (sound.CARD, sound.CAPTURE))
        qtbot.waitUntil(
            lambda: backend.frames_out - start > longest and backend.sounding == 0, timeout=10_000
        )
    finally:
        backend.close()


def test_a_device_that_cannot_open_leaves_the_app_silent(caplog):
    def broken() -> Any:
        raise miniaudio.MiniaudioError("failed to init device", -1)

    caplog.set_level(logging.INFO)
    backend = MiniaudioBackend(sound.RATE, device_factory=broken)
    assert backend.opened.wait(10)
    sounds = Sounds(backend, load_clips())
    assert sounds.play(sound.CARD)  # asked for; nothing to hear, nothing raised
    sounds.play(sound.YAKU)
    backend.close()
    lines = [r for r in caplog.records if "audio device cannot be opened" in r.getMessage()]
    assert len(lines) == 1 and lines[0].levelno == logging.INFO


def test_mute_and_volume_are_kept_and_read_back_at_launch(qtbot):
    settings = AppSettings()
    assert (settings.get(SOUND_ON), settings.get(SOUND_VOLUME)) == (True, 70)  # first launch
    heard = Heard()
    window = MainWindow(timings=FAST, settings=settings, sounds=open_sounds(settings, heard))
    qtbot.addWidget(window)
    window.show_display()
    dialog = window._display_dialog
    assert dialog is not None and dialog.sound is not None
    controls = dialog.sound
    assert controls.on.isChecked() and controls.volume.value() == 70
    controls.volume.setFocus()
    qtbot.keyClick(controls.volume, Qt.Key.Key_PageDown)  # 70 → 60
    assert window.sounds.volume == 60
    controls.on.click()
    assert not window.sounds.on and not controls.volume.isEnabled()
    assert not window.sounds.play(sound.CARD) and heard.names == []
    again = open_sounds(AppSettings(), Heard())
    assert (again.on, again.volume) == (False, 60)


@pytest.mark.parametrize(("on", "volume"), [("maybe", "loud"), ("true", "250"), ("", "-5")])
def test_a_corrupt_setting_falls_back_to_the_default(on, volume):
    settings = AppSettings()
    settings.store.setValue(SOUND_ON.key, on)
    settings.store.setValue(SOUND_VOLUME.key, volume)
    settings.sync()
    sounds = open_sounds(AppSettings(), Heard())
    assert (sounds.on, sounds.volume) == (True, 70)


def test_volume_0_plays_nothing():
    heard = Heard()
    sounds = Sounds(heard, load_clips(), volume=0)
    assert not sounds.play(sound.CARD) and heard.names == []
    sounds.volume = 140
    assert sounds.volume == 100 and sounds.play(sound.CARD)


def _null_device() -> Any:
    """miniaudio's own null device: the real library, a device that is always there."""
    return miniaudio.PlaybackDevice(
        output_format=miniaudio.SampleFormat.SIGNED16,
        nchannels=1,
        sample_rate=sound.RATE,
        buffersize_msec=20,
        backends=[miniaudio.Backend.NULL],
    )


def test_playing_never_waits_for_the_device(qtbot):
    release = threading.Event()

    def slow_device() -> Any:  # a device that takes its time to open
        release.wait(30)
        return _null_device()

    backend = MiniaudioBackend(sound.RATE, device_factory=slow_device)
    try:
        sounds = Sounds(backend, load_clips())
        assert sounds.play(sound.CARD)  # returns while the device is still opening
        assert not backend.opened.is_set() and backend.frames_out == 0
        release.set()
        assert backend.opened.wait(10) and backend.failed is None
        clip = len(sounds.clips[sound.CARD].samples) // 2
        qtbot.waitUntil(lambda: backend.frames_out > clip and backend.sounding == 0)
    finally:
        release.set()
        backend.close()


def test_tab_reaches_the_sound_controls_after_the_display_options(qtbot):
    window = MainWindow(timings=FAST, sounds=Sounds(Heard()))
    qtbot.addWidget(window)
    window.show_display()
    dialog = window._display_dialog
    assert dialog is not None and dialog.sound is not None
    assert dialog.draw_pace.nextInFocusChain() is dialog.mute_stamps
    assert dialog.mute_stamps.nextInFocusChain() is dialog.sound.on
    assert dialog.sound.on.nextInFocusChain() is dialog.sound.volume
    box = dialog.findChild(QDialogButtonBox)
    assert box is not None
    assert dialog.sound.volume.nextInFocusChain() is box.button(
        QDialogButtonBox.StandardButton.Close
    )
