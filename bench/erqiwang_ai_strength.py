"""二七王 AI strength on duplicate deals and the bidding table (the 二七王 half of
``bench/ai_strength.py``).

Run: ``python bench/erqiwang_ai_strength.py [--deals 2000] [--bidding 1000] [--preset ...]``
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.ai_strength import main

if __name__ == "__main__":
    main(["--game", "erqiwang", *sys.argv[1:]])
