#!/bin/sh
# Writes the weights files the session protocol/sessions/evalfile.session
# and the evaluation's tests load (run from the repository root; the
# results are committed). The JSON files are texel.py-style fits.
set -e
cd "$(dirname "$0")/../.."
t=tests/weights
conv=tools/train/to_weights.py
# The built-in chess weights with the pawn's material correction +50 (6 -> 56).
python3 $conv $t/chess-pawn50.json chess PNBRQK $t/chess-pawn50.weights --description "test: built-in chess, pawns +50"
# Ita: pawns +10, nothing else.
python3 $conv $t/ita-pawn10.json ita FSLCRBP $t/ita-pawn10.weights --description "test: ita pawns +10"
# Broken ones: cut inside the corrections, not a weights file, a variant
# not played here, historia-sako named on chess's piece types.
head -c 300 weights/chess.weights > $t/truncated.weights
printf 'not weights\n' > $t/bad-magic.weights
python3 $conv tools/train/results/chess.json xiangqi PNBRQK $t/xiangqi.weights --description "test: unknown variant"
python3 $conv tools/train/results/chess.json historia-sako PNBRQK $t/historia-shape.weights --description "test: chess types"
# Historia Ŝako: a queen in hand +7, nothing else.
python3 $conv $t/historia-hand7.json historia-sako KQRBNEP $t/historia-hand7.weights --description "test: historia queen in hand +7"
