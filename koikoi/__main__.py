import multiprocessing

from koikoi.cli import main

if __name__ == "__main__":  # not when a helper process imports it (multiprocessing)
    multiprocessing.freeze_support()  # a frozen app starts its helper processes through here
    raise SystemExit(main())
