"""The gate's reviews: see docs/explanation/the-house.md."""
