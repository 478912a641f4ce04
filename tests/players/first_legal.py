"""A toy outside player for ``qcards match --player exec:...`` (qcards.analysis.exec_player):
it answers every card request with the first legal card, every other request with ``{}``.

``python first_legal.py [LOG]`` appends each request it reads to the file LOG (one JSON line
each) when given, after a first line with its process id.
"""

import json
import os
import sys

log = open(sys.argv[1], "a", encoding="utf-8") if len(sys.argv) > 1 else None  # noqa: SIM115
if log:
    log.write(json.dumps({"pid": os.getpid()}) + "\n")
    log.flush()
for line in sys.stdin:
    request = json.loads(line)
    if log:
        log.write(line)
        log.flush()
    answer = {"card": request["legal"][0]} if request["type"] == "card" else {}
    print(json.dumps(answer), flush=True)
