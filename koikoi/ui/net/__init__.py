"""A match with a person, in the window: the Qt link (netlink/), the moments before the
match, the main window's network half, network failures in words, and the pins saved off the
UI thread."""
