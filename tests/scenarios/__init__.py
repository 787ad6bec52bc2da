"""Scenario suites (seed 003 三.10): delivery, recovery and orchestration, each scenario proved
through the real entry points and, with its mechanism switched off, shown to fail."""
