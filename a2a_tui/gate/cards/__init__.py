"""The gate's cards: see docs/explanation/the-house.md."""
