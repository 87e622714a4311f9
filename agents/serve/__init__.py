"""spades serve."""
