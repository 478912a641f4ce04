"""The ``qcards`` subcommands in ``--help``'s order, each with its one-line summary.

The one source of both: each command's module passes its summary to ``add_parser``, and
``qcards --help`` lists them all from here without importing any command's module (which
would import Qiskit: seconds instead of a fraction of one)."""

from __future__ import annotations

SUMMARIES: dict[str, str] = {
    "reproduce": "reproduce the paper's four- and six-card examples",
    "evaluate": "p_win and expected declarer points of specs",
    "recommend": (
        "the cards of the seat to move (after --history, any seat, mid-trick too), best first"
    ),
    "declare": (
        "the game to declare: with twelve cards (the Skat picked up) every discard and game by "
        "expected Seeger-Fabian score; else p_win under each game type"
    ),
    "bid": (
        "ten cards, the Skat unseen: every Hand game and announcement against picking up the "
        "Skat, and the highest bid worth making (expected Seeger-Fabian score)"
    ),
    "fit": (
        "fit the softmax play model's parameters, the declarer's and the defenders' in turn "
        "(fictitious play), to the declarer's expected objective"
    ),
    "train": (
        "train the learned play model: positions of complete games labelled by PIMC, a small "
        "network fitted to its cards"
    ),
    "train-bidder": (
        "train the hand evaluator qcards bids and declares with: games played out by the "
        "heuristic, a small network fitted to their outcomes"
    ),
    "match": (
        "play complete games between three players (a play model each) on duplicate deals, scored"
        " in Seeger-Fabian points with paired 95%% intervals"
    ),
    "score": (
        "score finished games (TOML records) by the ISkO: game value, won or lost, overbid, "
        "matadors, list score and Seeger-Fabian points"
    ),
    "count": "estimate p_win by quantum counting (canonical) or amplitude estimation",
    "run": "sample the final game state on a backend",
    "jobs": "hardware jobs recorded in the local job store",
    "resources": (
        "qubits, CX and depth of the game circuit with N cards per player (10: full game) or of a"
        " spec; --fault-tolerant: logical counts and physical cost"
    ),
    "tables": (
        "recompute Tables 8 and 9, Eqs. 32-39 and the Sec. IX estimates; compare with the paper's"
        " printed numbers"
    ),
    "export": "write game circuits as OpenQASM 3 and QPY (a spec's, or the paper examples')",
    "gofish": "Quantum Go Fish: replay game records, play in the terminal, bot leagues",
    "cats": "Philosopher Cats: deduce a hand, or compare dealer strategies",
    "qgo": "Quantum Go: replay a game record, or play in the terminal",
    "warm-up": (
        "compile the solvers once (numba; about a minute on a fresh install), so that later "
        "commands start from the cache"
    ),
}
"""Each subcommand's summary (``%%`` is a literal percent sign, as argparse formats it)."""

COMMANDS = tuple(SUMMARIES)
"""The subcommands, one module each under ``qcards.cli``, in ``--help``'s order."""
