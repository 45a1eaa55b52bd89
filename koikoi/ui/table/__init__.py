"""The table screen: the cards as widgets and where they lie, what the player sees of the
table, the score column beside it, the panels laid over it, and the screen that holds them
all."""
