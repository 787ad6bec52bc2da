"""The gate's attempts: see docs/explanation/the-house.md."""
