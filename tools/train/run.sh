#!/bin/sh
# One variant from nothing to tuned weights:
#   tools/train/run.sh VARIANT [GAMES] [NODES] [THREADS]
# writes runs/train/VARIANT.bin (continued if it exists: same settings) and
# runs/train/VARIANT.json (the Texel fit, see tools/train/README.md).
set -eu
variant=${1:?usage: tools/train/run.sh VARIANT [GAMES] [NODES] [THREADS]}
games=${2:-2000}
nodes=${3:-5000}
threads=${4:-2}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
cargo build --release --quiet
mkdir -p runs/train
target/release/calvin datagen --variant "$variant" --games "$games" --nodes "$nodes" \
    --threads "$threads" --seed 1 --out "runs/train/$variant.bin"
python=tools/train/.venv/bin/python
if [ ! -x "$python" ]; then
    python3 -m venv tools/train/.venv
    "$python" -m pip install --quiet -r tools/train/requirements.txt
fi
"$python" tools/train/texel.py "runs/train/$variant.bin" --engine target/release/calvin \
    --out "runs/train/$variant.json"
