"""Run the project template's task (`contractgen.project.scaffold`) under its old name."""

import sys

from ..project.scaffold import main

sys.exit(main())
