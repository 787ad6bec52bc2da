"""The store's schema, as numbered migrations (`NNNN_what.sql` or `NNNN_what.py`), applied in
order by `a2a_tui.store.migrate`, whose docstring says how to add one."""
