"""The audio layer: the table's sounds, their volume and mute (:mod:`.sounds`), the device
behind them (:mod:`.mixer`) and their controls in the display options (:mod:`.controls`)."""
