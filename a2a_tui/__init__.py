"""a2a: a terminal workbench for driving several native coding-agent CLIs behind one gate."""

__version__ = "0.1.0"
