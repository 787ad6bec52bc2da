"""Verification: a fixed chain of deterministic checks on a clean checkout of exactly the
submitted SHA (`command.verify`), its runs, reports, rejection feedback and logs."""
