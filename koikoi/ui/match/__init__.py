"""A match as the window plays it: the controller and its loop, the other seat (the computer
off the UI thread, or a peer), the narration, what the controller tells the table, and the
practice match saved after every action."""
