"""The Textual workbench: the only code that imports `textual` or `rich`."""
