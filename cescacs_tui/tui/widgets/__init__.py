"""The widgets of the game screen: the board, the side panels, the move box, the message line."""
