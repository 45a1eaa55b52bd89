"""Learning the game: the help window, the rules with pictures, the card gallery, the
glossary, the page they are laid out on, and the score calculator."""
