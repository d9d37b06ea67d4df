"""The former name of `contractgen.project.scaffold`, for projects made from template releases
before it moved: their `copier update` renders the old template, whose task runs
`python -m contractgen.scaffold` with the contractgen installed now.
"""

import sys

from .project.scaffold import main

if __name__ == "__main__":
    sys.exit(main())
