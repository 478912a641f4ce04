"""Playing Quantum Go Fish in a terminal: the table drawn like the paperclip deck, humans and bots.

The table has one row per player, as in Anton Geraschenko's physical deck: a "card" per suit
(named suits by name, suits nobody has named yet as ``?1``, ``?2``), with the player's clips
attached to it (``[narwhals]@@``: two cards provably narwhals; the provable minimum); a suit
the player provably holds none of is turned face down (``#narwhals#``); the clips still *in
hand* are the cards whose suit is not known. ``>`` marks the player to ask.

A human asks with ``ask Bo narwhals`` or just ``Bo narwhals`` (a word nobody used yet names a
new suit) and answers ``yes`` or ``no``; a forced answer is given for them ("Bo must say yes").
``hint`` shows which asks win at once (and which hand a win to someone else), or what each
answer leads to, with the greedy bot's choice; ``--hints`` shows them before every decision.
``moves`` lists the moves so far, ``table`` redraws, ``help`` lists the commands, ``quit``
stops. Bad input gets a message and the prompt again.

``undo`` takes back the last ask made by a human, with its answer and every move after it
(so the bots' replies go too), and that human asks again. Typed while a human's ask awaits
another human's answer, it cancels just that ask. The game is rebuilt by replaying the
remaining moves on a fresh referee (:class:`~.game.GoFish` has no undo). Bots may choose
differently the second time (their random state moves on).

Variants: with lose-a-turn a human asked a question with one consistent answer still answers
(warned that the other answer will be refused and cost a turn); bots and forced answers of
the standard game are played for them. With playing-on, a suit laid down is drawn ``=suit=``
on the row of the player who laid it down (face down on the others).

Input and output are streams, so a scripted game is a test; input that is not a terminal is
echoed, and its end stops the game where it is.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TextIO, TypeVar

from qcards.files import write_text
from qcards.games.gofish.bots import (
    BOT_KINDS,
    DEFAULT_DEPTH,
    Bot,
    GreedyBot,
    allowed,
    children,
    make_bot,
    previews,
)
from qcards.games.gofish.errors import RuleError
from qcards.games.gofish.game import MAX_PLAYERS, MIN_PLAYERS, YES, Ask, GoFish, Hand, Move
from qcards.games.gofish.record import move_line, write_record
from qcards.games.terminal_io import read_line

CLIP = "@"
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")
LEGEND = (
    "[suit]@@: a suit card with two clips attached (two cards provably of that suit); "
    "#suit#: turned face down (provably none); in hand: clips of unknown suit"
)
LAID_LEGEND = "=suit=: four cards laid down (out of the game)"
HELP = """\
commands:
  ask NAME SUIT   ask NAME for SUIT (or just: NAME SUIT); a new word names a new suit
  yes / no        answer an ask (y / n)
  hint            what each ask or answer leads to, and the greedy bot's choice
  moves           the moves so far
  table           draw the table again
  undo            take back the last human ask, its answer and the moves after it
  quit            stop the game
  help            this list
"""
T = TypeVar("T")


class Stop(Exception):
    """The game stops unfinished: the input ended, or a human typed ``quit``."""


class Undo(Exception):
    """A human typed ``undo``."""


# -- drawing -------------------------------------------------------------------------------


def draw(game: GoFish, tags: Mapping[str, str] | None = None) -> str:
    """The table: one row per player, suit cards with clips attached, loose clips in hand.

    Args:
        game: the game.
        tags: a note after some players' names (e.g. ``"greedy bot"``).
    """
    tags = tags or {}
    hands = game.hands()
    names = {p: f"{p} ({tags[p]})" if p in tags else p for p in game.players}
    laid = {player: {s for p, s in game.laid_down if p == player} for player in game.players}
    rows = [
        (player, [_card(label, hand, label in laid[player]) for label in game.labels], hand)
        for player, hand in hands.items()
    ]
    widths = [max(len(cards[k]) for _, cards, _ in rows) for k in range(len(game.labels))]
    name_width = max(len(n) for n in names.values())
    lines = []
    for player, cards, hand in rows:
        mark = ">" if player == game.turn else " "
        suits = "  ".join(c.ljust(w) for c, w in zip(cards, widths, strict=True))
        size = f"{hand.size} card{'s' if hand.size != 1 else ''}"
        loose = CLIP * hand.unknown or "-"
        owed = game.skips[player]
        penalty = f", sits out {owed} turn{'s' if owed != 1 else ''}" if owed else ""
        lines.append(
            f"{mark} {names[player]:<{name_width}}  {suits}  in hand: {loose} ({size}{penalty})"
        )
    return "\n".join(lines)


def _card(label: str, hand: Hand, laid: bool = False) -> str:
    """One suit card of a hand: laid down, face down, or face up with its clips."""
    if laid:
        return f"={label}="
    if label in hand.excluded:
        return f"#{label}#"
    return f"[{label}]" + CLIP * hand.known.get(label, 0)


def describe(number: int, move: Move, new_suit: bool = False) -> str:
    """A played move: ``"3. Ann asks Bo for narwhals: yes (forced)"``."""
    notes = [
        note
        for note, on in (
            ("new suit", new_suit),
            ("forced", move.forced and not move.refused),
            (f"refused: {move.applied} applied, {move.target} sits out a turn", move.refused),
        )
        if on
    ]
    notes += [f"{player} lays down {suit}" for player, suit in move.laid_down]
    return f"{number}. {move_line(move)}" + (f" ({', '.join(notes)})" if notes else "")


def _ask_text(ask: Ask) -> str:
    return f"{ask.target} {ask.suit if ask.suit is not None else '<new suit>'}"


def hints(game: GoFish, ask: Ask | None = None) -> list[str]:
    """Hints for the player to decide: the asker (``ask`` None) or the target of ``ask``.

    For an asker: the asks that win whatever the answer, those that win under some answer,
    those after which some answer makes another player win, and the greedy bot's ask. For a
    target: what each consistent answer leads to, and the greedy bot's answer.
    """
    greedy = GreedyBot(seed=0)
    if ask is not None:
        me = ask.target
        lines = []
        for answer, after in children(game, ask).items():
            status = after.outcome.describe() if after.over else "the game goes on"
            lines.append(f"hint: {answer}: {status}")
        return [*lines, f"hint: the greedy bot would answer {greedy.choose_answer(game, ask)}"]
    me = game.turn or ""
    sure, maybe, risky = [], [], []
    for preview in previews(game):
        wins, losses = preview.winning(me), preview.losing(me)
        text = _ask_text(preview.ask)
        if wins and len(wins) == len(preview.outcomes):
            sure.append(text)
        elif wins:
            maybe.append(f"{text} (if {preview.ask.target} says {'/'.join(wins)})")
        if losses:
            risky.append(f"{text} (if {preview.ask.target} says {'/'.join(losses)})")
    lines = []
    if sure:
        lines.append(f"hint: you win whatever the answer: {'; '.join(sure)}")
    if maybe:
        lines.append(f"hint: you could win: {'; '.join(maybe)}")
    if risky:
        lines.append(f"hint: someone else could win: {'; '.join(risky)}")
    if not (sure or maybe):
        lines.append("hint: no ask can win at once")
    return [*lines, f"hint: the greedy bot would ask {_ask_text(greedy.choose_ask(game))}"]


# -- humans --------------------------------------------------------------------------------


class Human:
    """A player at the terminal, reading from ``inp`` and writing to ``out``.

    Args:
        name: the player's name.
        inp: where the commands come from.
        out: where prompts and messages go.
        show_hints: print the hints before every decision.
    """

    kind = "human"

    def __init__(self, name: str, inp: TextIO, out: TextIO, show_hints: bool = False) -> None:
        self.name = name
        self.inp = inp
        self.out = out
        self.show_hints = show_hints

    def _read(self, prompt: str) -> str:
        return read_line(self.inp, self.out, prompt, Stop("input ended"))

    def _say(self, lines: Sequence[str]) -> None:
        self.out.writelines(f"  {line}\n" for line in lines)

    def _command(self, word: str, game: GoFish, ask: Ask | None) -> bool:
        """Run a one-word command; False if ``word`` is not one."""
        if word == "help":
            self.out.write(HELP)
        elif word == "hint":
            self._say(hints(game, ask))
        elif word == "moves":
            self._say([describe(k, m) for k, m in enumerate(game.moves, 1)] or ["no moves yet"])
        elif word == "table":
            self.out.write(draw(game) + "\n")
        elif word == "undo":
            raise Undo
        elif word == "quit":
            raise Stop("quit")
        else:
            return False
        return True

    def choose_ask(self, game: GoFish) -> Ask:
        """Read an ask (or run commands) until a legal one is typed."""
        if self.show_hints:
            self._say(hints(game))
        while True:
            text = self._read(f"{self.name}, ask (NAME SUIT, or help): ")
            words = text.split()
            if len(words) == 1 and self._command(words[0].lower(), game, None):
                continue
            if len(words) == 3 and words[0].lower() == "ask":
                words = words[1:]
            if len(words) != 2:
                self._say(["type NAME SUIT (e.g. Bo narwhals), or help"])
                continue
            target, suit = _match(words[0], game.players), _match(words[1], game.suits)
            ask = Ask(self.name, target, suit)
            try:
                _check_suit_name(suit)
                game.allowed_answers(ask.asker, ask.target, suit)
            except RuleError as exc:
                self._say([f"illegal: {exc}"])
                continue
            return ask

    def choose_answer(self, game: GoFish, ask: Ask) -> str:
        """Read ``yes`` or ``no`` (or run commands)."""
        if self.show_hints:
            self._say(hints(game, ask))
        while True:
            text = self._read(f"{self.name}, {ask.asker} asks you for {ask.suit} (yes/no): ")
            word = text.lower()
            if word in ("yes", "y", "no", "n"):
                return "yes" if word.startswith("y") else "no"
            if not self._command(word, game, ask):
                self._say(["answer yes or no (or help)"])


def _match(word: str, names: Sequence[str]) -> str:
    """``word``, or the name in ``names`` it spells in another letter case."""
    return next((n for n in names if n.lower() == word.lower()), word)


def _check_suit_name(suit: str | None) -> None:
    if suit is not None and any(c in suit for c in "#:"):
        raise RuleError(f"{suit!r}: a suit name cannot contain '#' or ':' (records need that)")


# -- the game loop -------------------------------------------------------------------------

Player = Bot | Human


def play_terminal(game: GoFish, players: Mapping[str, Player], out: TextIO) -> GoFish:
    """Run ``game`` to its end (or until it stops), drawing it on ``out``.

    Args:
        game: the game to continue (usually a new one).
        players: who plays each seat, by name (:class:`Human` or a bot).
        out: where the table and the moves are written.

    Returns:
        The game as it ended (a new object if a move was taken back).
    """
    humans = {name for name, p in players.items() if isinstance(p, Human)}
    tags = {name: f"{p.kind} bot" for name, p in players.items() if name not in humans}
    out.write(f"{LEGEND}\n")
    if game.playing_on:
        out.write(f"{LAID_LEGEND}\n")
    try:
        while not game.over:
            out.write("\n" + draw(game, tags) + "\n")
            try:
                game = _turn(game, players, humans, out)
            except Undo:
                game = _undo(game, humans, out)
    except Stop as stop:
        out.write(f"\n{stop}; game not finished after {len(game.moves)} move(s)\n")
        return game
    out.write("\n" + draw(game, tags) + "\n")
    out.write(f"result: {game.outcome.describe()}\n")
    return game


def _turn(game: GoFish, players: Mapping[str, Player], humans: set[str], out: TextIO) -> GoFish:
    """One ask and its answer (a human's ``undo`` escapes as :class:`Undo`)."""
    asker = game.turn or ""
    can_undo = any(m.asker in humans for m in game.moves)
    ask = _retry(lambda: players[asker].choose_ask(game), can_undo, out)
    if asker not in humans:
        out.write(f"{asker} asks {ask.target} for {ask.suit}\n")
    answers = allowed(game, ask)
    answer = None
    if len(answers) == 1:
        other = "no" if answers[0] == YES else "yes"
        if game.lose_a_turn and ask.target in humans:  # the human may take the penalty
            out.write(
                f"{ask.target}: only {answers[0]} is consistent; {other} will be refused "
                "and cost you a turn\n"
            )
        else:
            out.write(f"{ask.target} must say {answers[0]} ({other} would be a paradox)\n")
            answer = answers[0]
    if answer is None:
        pending = asker in humans  # an undo now takes back just this ask
        try:
            answer = _retry(
                lambda: players[ask.target].choose_answer(game, ask), can_undo or pending, out
            )
        except Undo:
            if not pending:
                raise
            out.write(f"{asker}'s ask taken back\n")
            return game
        if ask.target not in humans:
            out.write(f"{ask.target} says {answer}\n")
    new_suit = ask.suit not in game.suits
    move = game.play(ask.asker, ask.target, ask.suit or "", answer)
    out.write(describe(len(game.moves), move, new_suit) + "\n")
    return game


def _retry(call: Callable[[], T], can_undo: bool, out: TextIO) -> T:
    """``call()``; an ``undo`` with nothing to take back is refused and ``call`` runs again."""
    while True:
        try:
            return call()
        except Undo:
            if can_undo:
                raise
            out.write("  nothing to undo yet\n")


def _undo(game: GoFish, humans: set[str], out: TextIO) -> GoFish:
    """The game without the last human ask and everything after it (replayed afresh)."""
    moves = game.moves
    last = max(k for k, m in enumerate(moves) if m.asker in humans)
    out.write(f"took back {len(moves) - last} move(s), from: {move_line(moves[last])}\n")
    return replayed(game, moves[:last])


def replayed(game: GoFish, moves: Sequence[Move]) -> GoFish:
    """A fresh game with the same players and variant, with ``moves`` played on it."""
    fresh = GoFish(game.players, **game.variants)
    for m in moves:
        fresh.play(m.asker, m.target, m.suit, m.answer)
    return fresh


# -- the command ---------------------------------------------------------------------------


def play_game(
    players: int = 3,
    bots: int | None = None,
    bot: str = "greedy",
    seed: int = 0,
    names: Sequence[str] | None = None,
    no_four: bool = False,
    lose_a_turn: bool = False,
    playing_on: bool = False,
    show_hints: bool = False,
    record: str | Path | None = None,
    depth: int = DEFAULT_DEPTH,
    inp: TextIO | None = None,
    out: TextIO | None = None,
) -> GoFish:
    """``qcards gofish play``: humans in the first seats, ``bots`` bots after them.

    Args:
        players: seats (2 to 8).
        bots: how many of them bots play (the rest are humans, hot-seat if several); default
            all but the first seat.
        bot: the bots' kind (:data:`~.bots.BOT_KINDS`); bot ``k`` gets seed ``seed + k``.
        seed: seed of the bots.
        names: all players' names in seat order (default: Ann, Bo, Cy, ...).
        no_four: the no-four variant.
        lose_a_turn: the lose-a-turn variant (humans may give a refused answer).
        playing_on: the playing-on variant (implies no-four).
        show_hints: hints before every human decision.
        record: write the game (finished or not) to this file as a record.
        depth: the search bot's depth in turns.
        inp: the humans' input (default: standard input).
        out: where the game is shown (default: standard output).

    Raises:
        RuleError: for bad options (more bots than players, a wrong number of names, ...).
    """
    inp = inp or sys.stdin
    out = out or sys.stdout
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError(
            f"{{players}} {players}: the game needs {MIN_PLAYERS} to {MAX_PLAYERS}",
            parameters=("players",),
        )
    bots = players - 1 if bots is None else bots
    if not 0 <= bots <= players:
        raise RuleError(
            f"{{bots}} {bots}: between 0 and {{players}} ({players})",
            parameters=("bots", "players"),
        )
    if bot not in BOT_KINDS:
        raise RuleError(f"unknown bot {bot!r} (choose from {', '.join(BOT_KINDS)})")
    names = tuple(names) if names else NAMES[:players]
    if len(names) != players:
        raise RuleError(
            f"{{names}} gives {len(names)} name(s) for {players} players", parameters=("names",)
        )
    bad = [n for n in names if any(c in n for c in "#:") or n.startswith("?")]
    if bad:
        raise RuleError(f"name {bad[0]!r}: names cannot contain '#' or ':' or start with '?'")
    game = GoFish(names, no_four, lose_a_turn, playing_on)
    humans = players - bots
    seats: dict[str, Player] = {
        name: Human(name, inp, out, show_hints)
        if k < humans
        else make_bot(bot, seed + k - humans, depth)
        for k, name in enumerate(names)
    }
    game = play_terminal(game, seats, out)
    if record is not None:
        write_text(record, write_record(game))
    return game
