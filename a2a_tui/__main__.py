from a2a_tui.cli import main

raise SystemExit(main())
