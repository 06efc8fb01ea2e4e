"""四团 AI strength on duplicate deals (the 四团 half of ``bench/ai_strength.py``).

Run: ``python bench/situan_ai_strength.py [--deals 2000] [--pairings hard-normal,...]``
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.ai_strength import main

if __name__ == "__main__":
    main(["--game", "situan", *sys.argv[1:]])
