#!/bin/sh
# Creates tools/cluster/.venv with Ray (requirements.txt) and checks that it imports.
# Every machine of a cluster needs the same Ray and Python (this script, or the same pins).
set -e
cd "$(dirname "$0")"
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install --quiet -r requirements.txt
.venv/bin/python -c "import ray; print('ray', ray.__version__, 'ok')"
