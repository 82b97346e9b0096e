"""The JSON-lines records the device scripts write (one object per line, e.g. NAME_run.jsonl), read by the validate
scripts that set silicon beside the model (mio_order.py, ldg_backlog.py)."""
import json
import os
import sys


def read_jsonl(path, tool):
    """Every line of `path` as a dict; exits naming `tool` when the file is missing."""
    if not os.path.isfile(path):
        sys.exit(f"{tool}: {path} is missing")
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]
