from koikoi.cli import main

raise SystemExit(main())
