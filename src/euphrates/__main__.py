"""`python -m euphrates` is the `euphrates` command."""

import sys

from euphrates.cli import main

sys.exit(main())
