#!/bin/sh
# Creates tools/nnue/.venv (Python 3, torch on the CPU, numpy) and checks that torch imports.
set -e
cd "$(dirname "$0")"
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install --upgrade pip 'setuptools>=77.0.3'
.venv/bin/pip install -r requirements.txt
.venv/bin/python -c "import torch; assert float(torch.ones(3).sum()) == 3; print('torch', torch.__version__, 'ok')"
