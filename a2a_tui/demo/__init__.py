"""`a2a demo`: a sample repository, demo agents and the workbench, with no agent CLI or API key."""
