"""The dialogs the game screen asks its questions in: choices, confirmations, files, the new game, help."""
