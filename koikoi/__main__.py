from koikoi.cli import main

if __name__ == "__main__":  # not when a helper process imports it (multiprocessing)
    raise SystemExit(main())
