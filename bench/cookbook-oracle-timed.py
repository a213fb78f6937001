"""Times the ast oracle of cookbook discovery (test/stacks/tinker-cookbook/chz_fields_oracle.py) on a recipes folder.

Usage: python3 cookbook-oracle-timed.py RECIPES_DIR
Prints {"scan_seconds", "scan_cpu_seconds", "recipes", "fields"}: the oracle's walk, parse and field reading, timed
inside Python with perf_counter (its JSON output goes to a buffer, not counted apart from building it).
"""

import contextlib
import importlib.util
import io
import json
import os
import sys
import time

ORACLE = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "test", "stacks", "tinker-cookbook", "chz_fields_oracle.py"
)


def main(recipes):
    # The oracle lives among the tests: leave no __pycache__ there.
    sys.dont_write_bytecode = True
    spec = importlib.util.spec_from_file_location("chz_fields_oracle", ORACLE)
    oracle = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(oracle)
    out = io.StringIO()
    started, cpu_started = time.perf_counter(), time.process_time()
    with contextlib.redirect_stdout(out):
        oracle.main(recipes)
    scan_seconds, scan_cpu_seconds = time.perf_counter() - started, time.process_time() - cpu_started
    found = json.loads(out.getvalue())
    print(
        json.dumps(
            {
                "scan_seconds": scan_seconds,
                "scan_cpu_seconds": scan_cpu_seconds,
                "recipes": len(found),
                "fields": sum(len(r["fields"]) for r in found),
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1])
