"""``python -m playtest.lite``: build the serverless site (see :mod:`playtest.lite.build`)."""

import sys

from .build import main

sys.exit(main())
