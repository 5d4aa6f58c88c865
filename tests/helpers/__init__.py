"""What several test modules share: fakes, model games, position builders, app helpers."""
