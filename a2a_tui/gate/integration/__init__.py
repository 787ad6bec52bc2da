"""The gate's integration: see docs/explanation/the-house.md."""
