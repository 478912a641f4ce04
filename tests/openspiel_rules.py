"""qcards' rules against OpenSpiel's ``skat`` game, side by side (issue 41 item 5).

Random complete games are played in OpenSpiel (its deal, its first-come bidding of a game
type, a random discard of two cards, then the play) while qcards'
:class:`~qcards.skat.rules.cards.Rules`
follows the same cards: at every turn both engines' legal cards are compared, after every
trick the winner, and at the end the card points (the solo player's, the Skat included) or,
in null games, whether the solo player took a trick. OpenSpiel has no Hand games, game values
or bidding values, so those are not compared.

Where the two sets of legal cards differ, the play continues with a card both allow, so that
the game stays legal for both and the rest of it is still compared. Every difference is
recorded with what it is about; :func:`classify` names the one kind known so far.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field

from qcards.skat.rules.cards import Card, Rules, Trump

GAME_TYPES = {"diamonds": Trump.DIAMONDS, "hearts": Trump.HEARTS, "spades": Trump.SPADES,
              "clubs": Trump.CLUBS, "grand": Trump.GRAND, "null": Trump.NULL}  # fmt: skip


def deal_location(deal_round: int) -> int:
    """Where OpenSpiel's ``deal_round``-th dealt card goes (0-2 seats, 3 the Skat): three
    cards each, two into the Skat, four each, three each (skat.cc, ApplyDealAction)."""
    for seat, rounds in enumerate(((0, 3, 11, 15, 23, 26), (3, 6, 15, 19, 26, 29),
                                   (6, 9, 19, 23, 29, 32))):  # fmt: skip
        if any(lo <= deal_round < hi for lo, hi in zip(rounds[::2], rounds[1::2], strict=True)):
            return seat
    return 3


def card(name: str) -> Card:
    """OpenSpiel's card name (``DT``: the ten of diamonds) as a qcards card."""
    return Card.parse(name.replace("T", "10"))


@dataclass
class Tally:
    """What a run of games found."""

    games: int = 0
    passed: int = 0
    turns: int = 0
    tricks: int = 0
    finished: int = 0
    differences: Counter = field(default_factory=Counter)
    examples: dict = field(default_factory=dict)

    def note(self, kind: str, example: str) -> None:
        self.differences[kind] += 1
        self.examples.setdefault(kind, example)


def classify(rules: Rules, led: Card, ours: set[Card], theirs: set[Card]) -> str:
    """What a difference between the legal cards is about."""
    if rules.is_trump(led) and led.rank == "J":
        return (f"a jack led in a {rules.trump.value} game: qcards follows with trumps, "
                "OpenSpiel with the jacks and the jack's printed suit")  # fmt: skip
    return f"other: {led} led in {rules.trump.value}"


def play_games(count: int, seed: int, rules_for=Rules) -> Tally:
    """``count`` random games from ``seed``, both engines side by side; ``rules_for(trump)``
    gives qcards' rules (the tests hand it wrong ones, to see the check fail)."""
    import pyspiel

    game = pyspiel.load_game("skat")
    rng = random.Random(seed)
    tally = Tally()
    for _ in range(count):
        _play_one(game, rng, tally, rules_for)
    return tally


def _play_one(game, rng: random.Random, tally: Tally, rules_for) -> None:
    tally.games += 1
    state = game.new_initial_state()
    names = {a: state.action_to_string(0, a) for a in range(32)}
    hands: list[set[Card]] = [set(), set(), set(), set()]
    deal_round = 0
    while state.is_chance_node():
        action = rng.choice([a for a, _p in state.chance_outcomes()])
        hands[deal_location(deal_round)].add(card(names[action]))
        state.apply_action(action)
        deal_round += 1
    # bidding: first come, first served; each seat declares with probability 1/2
    solo, trump = None, None
    while solo is None and not state.is_terminal():
        player = state.current_player()
        actions = state.legal_actions()
        choice = actions[0] if rng.random() < 0.5 else rng.choice(actions[1:])
        label = state.action_to_string(player, choice)
        state.apply_action(choice)
        if label != "unknown/pass":
            solo, trump = player, GAME_TYPES[label]
    if solo is None:
        tally.passed += 1
        return
    hands[solo] |= hands[3]
    for _ in range(2):
        action = rng.choice(state.legal_actions())
        hands[solo].discard(card(names[action]))
        state.apply_action(action)
    skat = {card(names[a]) for a in range(32)} - set().union(*hands[:3])
    rules = rules_for(trump)
    trick: list[Card] = []
    leader = state.current_player()
    points = sum(c.value for c in skat) if not trump.is_null else 0
    solo_tricks = 0
    while not state.is_terminal():
        player = state.current_player()
        theirs = {card(names[a]) for a in state.legal_actions()}
        led = trick[0] if trick else None
        ours = set(rules.legal_cards(tuple(hands[player]), led))
        tally.turns += 1
        if ours != theirs:
            seen = f"hand {sorted(map(str, hands[player]))}, qcards {sorted(map(str, ours))}"
            where = f"{trump.value}: led {led}, {seen}, OpenSpiel {sorted(map(str, theirs))}"
            tally.note(classify(rules, led, ours, theirs), where)
        both = sorted(ours & theirs, key=str)
        if not both:
            tally.note("no card both engines allow", f"{trump.value}: led {led}")
            return
        chosen = rng.choice(both)
        action = next(a for a, n in names.items() if card(n) == chosen)
        state.apply_action(action)
        hands[player].discard(chosen)
        trick.append(chosen)
        if len(trick) < 3:
            continue
        winner = (leader + rules.trick_winner(trick)) % 3
        tally.tricks += 1
        if winner == solo:
            points += sum(c.value for c in trick)
            solo_tricks += 1
        if not state.is_terminal() and state.current_player() != winner:
            tally.note("trick winner", f"{trump.value}: {trick} led by seat {leader}")
        trick, leader = [], winner
    tally.finished += 1
    text = str(state)
    theirs_points = int(re.search(r"Points \(Solo / Team\): \((-?\d+) /", text).group(1))
    if trump.is_null:
        lost = solo_tricks > 0
        if (theirs_points == 30) != lost:
            tally.note("null game result", f"solo tricks {solo_tricks}, OpenSpiel {theirs_points}")
    elif theirs_points != points:
        tally.note("card points", f"{trump.value}: qcards {points}, OpenSpiel {theirs_points}")
