"""A toy outside player that answers wrongly: ``python broken.py MODE [PIDFILE]`` answers
``start`` with ``{}`` and its first card request as MODE says:

``garbage`` a line that is not JSON; ``list`` JSON that is not an object; ``nocard`` an
object without a card; ``unknown`` a card that does not exist; ``illegal`` a card it does
not hold; ``exit`` exits without answering; ``hang`` never answers.

With PIDFILE it writes its process id there first.
"""

import json
import os
import sys
import time

mode = sys.argv[1]
if len(sys.argv) > 2:
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        f.write(str(os.getpid()))
for line in sys.stdin:
    request = json.loads(line)
    if request["type"] != "card":
        print("{}", flush=True)
        continue
    if mode == "exit":
        sys.exit(3)
    if mode == "hang":
        while True:
            time.sleep(1)
    held = set(request["hand"])
    answer = {
        "garbage": "this is not json",
        "list": json.dumps([request["legal"][0]]),
        "nocard": json.dumps({"play": request["legal"][0]}),
        "unknown": json.dumps({"card": "X11"}),
        "illegal": json.dumps(
            {"card": next(c for c in ("CJ", "SJ", "HJ", "DJ", "CA", "SA") if c not in held)}
        ),
    }[mode]
    print(answer, flush=True)
