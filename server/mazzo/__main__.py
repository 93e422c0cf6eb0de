import sys

from mazzo.cli import main

sys.exit(main())
