#!/usr/bin/env bash
# Capture the CLI's outputs on the paper examples, to compare a change's before and after:
#   benchmarks/cli_capture.sh OUT_DIR CODE_DIR     (CODE_DIR: a checkout, e.g. a git worktree)
#   diff -r before/ after/
# Each command's stdout and stderr go to OUT_DIR/NN.txt with its exit status; exported
# circuits to OUT_DIR/files. Runs without --seed sample afresh each time.
set -u
out=$(realpath -m "$1"); code=$(realpath "$2"); mkdir -p "$out"; rm -rf "$out/OUT" "$out/files"; mkdir -p "$out/OUT"; export out; cd "$code" && export PYTHONPATH="$code"
S=qcards/specs
i=0
while IFS= read -r cmd; do
  [ -z "$cmd" ] && continue
  i=$((i+1))
  { echo "\$ $cmd"; bash -c "$cmd" 2>&1; echo "exit $?"; } > $out/$(printf %02d $i).txt
done <<'CMDS'
qcards evaluate qcards/specs/four-card.toml --json
qcards evaluate qcards/specs/six-card.toml --json
qcards evaluate qcards/specs/four-card.toml --method sparse --json
qcards evaluate qcards/specs/six-card.toml --method statevector --construction paper --json
qcards evaluate qcards/specs/six-card.toml --method statevector --construction hardware --json
qcards evaluate qcards/specs/six-card.toml --method adversarial --json
qcards recommend qcards/specs/six-card.toml --json
qcards recommend qcards/specs/six-card.toml --method statevector --construction paper --json
qcards declare qcards/specs/six-card.toml --json
qcards run qcards/specs/four-card.toml --json
qcards run qcards/specs/six-card.toml --backend aer --shots 500 --seed 3 --json
qcards run qcards/specs/six-card.toml --construction efficient --backend sparse --json
qcards run qcards/specs/six-card.toml --construction hardware --backend statevector --json
qcards run qcards/specs/six-card.toml --construction hardware --backend sparse --json
qcards evaluate qcards/specs/six-card.toml --method sparse --construction hardware --json
qcards evaluate qcards/specs/six-card.toml --method sparse --construction paper --json
qcards recommend qcards/specs/four-card.toml --method sparse --construction efficient --json
qcards resources --cards-per-player 4 --construction paper --json
qcards resources --cards-per-player 1 --construction hardware
qcards export --format qasm3 --out $out/OUT/examples
qcards run qcards/specs/full-game.toml --backend sparse --shots 3000 --seed 4 --json
qcards evaluate qcards/specs/six-card.toml --method aer --shots 2000 --seed 5 --construction efficient --json
qcards run qcards/specs/four-card.toml --backend fake:FakeTorino --shots 300 --seed 2 --json
qcards count qcards/specs/four-card.toml --json --seed 1
qcards count qcards/specs/six-card.toml --construction efficient --json --seed 1
qcards resources --cards-per-player 2
qcards resources --cards-per-player 2 --construction paper
qcards resources --cards-per-player 2 --construction hardware
qcards resources --cards-per-player 3 --construction efficient
qcards resources --cards-per-player 10 --json
qcards export qcards/specs/six-card.toml --construction efficient --format qasm3 --out $out/OUT/six-eff
qcards export qcards/specs/four-card.toml --construction hardware --format qasm3 --out $out/OUT/four-hw
qcards export qcards/specs/four-card.toml --format all --out $out/OUT/four-paper
qcards tables --json
qcards evaluate qcards/specs/full-game.toml --shots 2000 --seed 1 --json
CMDS
mv $out/OUT $out/files
