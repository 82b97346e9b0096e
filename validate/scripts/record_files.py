"""The committed validate records as files, for the scripts that add a compiled-code fact to them
(records_add_*.py): read each record of some directories, write one back in the layout it was
read in, and end a --check run."""
import json
import pathlib
import sys


def records(dirs):
    """(path, text, record) of every *.json in `dirs`, in name order."""
    for d in dirs:
        for path in sorted(pathlib.Path(d).glob("*.json")):
            text = path.read_text()
            yield path, text, json.loads(text)


def save(path, text, rec):
    """Writes `rec` back to `path` as the records are kept (one-space indent, `text`'s final newline)."""
    path.write_text(json.dumps(rec, indent=1) + ("\n" if text.endswith("\n") else ""))


def with_key_after(workload, after, key, value):
    """`workload` (a dict) with `key` set to `value` right after `after` (at the end when it has no
    `after`), the other keys in their order - as the runner writes its keys."""
    out = {}
    for k, v in workload.items():
        out[k] = v
        if k == after:
            out[key] = value
    out.setdefault(key, value)
    return out


def add_to_wmma_gemms(dirs, after, key, value):
    """Gives every record of the project's WMMA GEMM in `dirs` (kind gemm, no `mma`: the records of other
    kernels name theirs) that lacks `key` the workload key `key` = `value`, placed after `after`;
    returns how many it changed."""
    changed = 0
    for path, text, rec in records(dirs):
        w = rec.get("workload", {})
        if rec.get("kind") != "gemm" or w.get("kind") != "gemm" or "mma" in w or key in w:
            continue
        rec["workload"] = with_key_after(w, after, key, value)
        save(path, text, rec)
        changed += 1
    return changed


def finish_check(checked, stale, detail=""):
    """Ends a --check run: exit 1 when a record is stale or none was checked."""
    print(f"{checked} records checked{detail}, {stale} stale")
    sys.exit(1 if stale or not checked else 0)
