"""Collaboration records: user input, inbox, board, role rules."""
