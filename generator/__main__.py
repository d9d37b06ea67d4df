"""`python -m contractgen`: the same as the `contractgen` command."""

import sys

from .cli import main

sys.exit(main())
