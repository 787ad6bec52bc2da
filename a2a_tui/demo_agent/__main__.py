from a2a_tui.demo_agent import main

raise SystemExit(main())
