"""The screens: the game's, and the game's with the link to a coordinator."""
