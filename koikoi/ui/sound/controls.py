"""The sound's two controls in the display options: sound on or off, and its volume."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QSlider, QVBoxLayout, QWidget

from koikoi.ui.sound.clips import CARD
from koikoi.ui.sound.sounds import Sounds


class SoundControls(QWidget):
    """Changes ``sounds`` at once and tells ``on_changed`` (which keeps them); letting go of
    the slider plays a card's sound at the new volume."""

    def __init__(self, sounds: Sounds, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("soundControls")
        # the dialog is dark in both palettes: a cyan ring shows where the keys go (7:1+)
        self.setStyleSheet(
            "QSlider:focus { border: 2px solid #00e5ff; border-radius: 4px; }"
            "QCheckBox:focus { border: 2px solid #00e5ff; border-radius: 4px; }"
        )
        self.sounds = sounds
        self.on_changed: Callable[[Sounds], None] = lambda sounds: None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 8, 0, 0)
        head = QLabel(self.tr("音 · Sound"))
        head.setObjectName("learnHead")
        lay.addWidget(head)
        self.on = QCheckBox(self.tr("Play sounds (cards, yaku, calls, your turn)"))
        self.on.setAccessibleName(self.tr("Sounds on"))
        lay.addWidget(self.on)
        row = QHBoxLayout()
        label = QLabel(self.tr("Volume"))
        self.volume = QSlider(Qt.Orientation.Horizontal)
        self.volume.setRange(0, 100)
        self.volume.setSingleStep(5)
        self.volume.setPageStep(10)
        self.volume.setAccessibleName(self.tr("Sound volume"))
        label.setBuddy(self.volume)
        self.shown = QLabel()
        self.shown.setMinimumWidth(48)
        row.addWidget(label)
        row.addWidget(self.volume, 1)
        row.addWidget(self.shown)
        lay.addLayout(row)
        self.refresh()
        self.on.toggled.connect(self._on_toggled)
        self.volume.valueChanged.connect(self._volume_changed)
        self.volume.sliderReleased.connect(lambda: self.sounds.play(CARD))

    def refresh(self) -> None:
        """Show the sounds' settings as they are now."""
        for w in (self.on, self.volume):
            w.blockSignals(True)
        self.on.setChecked(self.sounds.on)
        self.volume.setValue(self.sounds.volume)
        for w in (self.on, self.volume):
            w.blockSignals(False)
        self._show()

    def _show(self) -> None:
        self.volume.setEnabled(self.sounds.on)
        self.shown.setText(self.tr("{0} %").format(self.sounds.volume))
        self.volume.setAccessibleDescription(self.shown.text())

    def _on_toggled(self, on: bool) -> None:
        self.sounds.on = on
        self._show()
        self.on_changed(self.sounds)

    def _volume_changed(self, value: int) -> None:
        self.sounds.volume = value
        self._show()
        self.on_changed(self.sounds)
