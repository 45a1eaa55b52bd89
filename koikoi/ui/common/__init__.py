"""What every part of the window shares: the look, the names of cards and yaku, the settings,
the one door for signals, the keyboard scheme, the display options, what a screen reader is
told, and the card art."""
