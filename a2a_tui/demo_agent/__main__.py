"""`python -m a2a_tui.demo_agent`; guarded so that importing this module runs nothing."""

from a2a_tui.demo_agent import main

if __name__ == "__main__":
    raise SystemExit(main())
