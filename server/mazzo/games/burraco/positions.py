"""Build a Burraco state from readable parts: puzzles, test positions, examples.

    state = position(
        hands=["JK 5H 6H 7H", None, "3D 8S", None],   # None: 11 unnamed cards
        melds=[(0, "4H 5H 6H 7H 8H 9H TH")],           # (opening seat, cards)
        pile="9C",
        takers=[2],                                    # P1 was taken by seat 2
    )

Cards not named anywhere go, in canonical order, to the unnamed hands, then to the
untaken pozzetti, then to the stock (or, with ``stock_size``, the stock takes that
many and the rest lie at the bottom of the discard pile). The result is checked
like any state that comes in (``validate``), so a position that could not arise by
the rules is refused with the reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from mazzo.core.cards import card, cards
from mazzo.games.burraco.cards import DECK
from mazzo.games.burraco.melds import signature
from mazzo.games.burraco.options import Options
from mazzo.games.burraco.state import NO_CARD, NO_SEAT, Stage, State, Table, new_meld
from mazzo.games.burraco.validate import POZZETTO_SIZE, THREE_PLAYER_P1, validate


def _take(spare: list[int], n: int) -> list[int]:
    taken = spare[:n]
    del spare[:n]
    if len(taken) < n:
        raise ValueError("not enough unnamed cards left to fill the position")
    return taken


def position(
    *,
    hands: Sequence[str | None],
    melds: Sequence[tuple[int, str]] = (),
    pile: str = "",
    stage: Stage = Stage.MELD,
    to_act: int = 0,
    options: Options | None = None,
    takers: Sequence[int] = (),
    locked: Sequence[int] = (),
    forbidden: str = "",
    pickups: int | None = None,
    last_turn: bool = False,
    stock: str | None = None,
    stock_size: int | None = None,
    dealer: int | None = None,
    hand_number: int = 1,
    totals: tuple[int, ...] | None = None,
    three_pozzetti: bool = False,
    seed: int = 0,
    validated: bool = True,
) -> State:
    """A state of ``len(hands)`` players. ``dealer`` defaults to the seat before
    ``to_act``; ``pickups`` to 1 in the MELD stage with an empty pile, else 0."""
    players = len(hands)
    options = options or Options()
    named_hands = [sorted(cards(h)) if h is not None else None for h in hands]
    named_melds = [(seat, tuple(sorted(cards(c)))) for seat, c in melds]
    pile_cards = cards(pile) if pile else ()
    stock_cards = list(cards(stock)) if stock else []
    used = Counter[int]()
    for h in named_hands:
        used.update(h or ())
    for _, m in named_melds:
        used.update(m)
    used.update(pile_cards)
    used.update(stock_cards)
    spare: list[int] = []
    left = Counter(DECK) - used
    for c in sorted(left):
        spare.extend([c] * left[c])
    final_hands = [h if h is not None else _take(spare, 11) for h in named_hands]
    three = players == 3 and not three_pozzetti
    count = 3 if three_pozzetti else 2
    taker_list = [*takers, *[NO_SEAT] * (count - len(takers))]
    pozzetti = []
    for i, t in enumerate(taker_list):
        size = THREE_PLAYER_P1 if three and i == 0 else POZZETTO_SIZE
        pozzetti.append(tuple(_take(spare, size)) if t == NO_SEAT else ())
    if stock is None:
        if stock_size is None:
            stock_cards, spare = spare, []
        else:
            stock_cards = _take(spare, stock_size)
    pile_cards = (*spare, *pile_cards)
    if pickups is None:
        pickups = 1 if stage is Stage.MELD and not pile_cards else 0
    solo = takers[0] if three and takers else NO_SEAT
    sides = 2 if players == 4 else players
    table = Table(
        options=options,
        players=players,
        seed=seed,
        counter=1,
        dealer=(to_act - 1) % players if dealer is None else dealer,
        hand_number=hand_number,
        totals=totals if totals is not None else (0,) * sides,
        three_pozzetti=three_pozzetti,
    )
    table_melds = []
    for seat, m in named_melds:
        sig = signature(m)
        if isinstance(sig, str):
            raise ValueError(f"not a meld: {m}: {sig}")
        table_melds.append(new_meld(seat, m, sig))
    state = State(
        table=table,
        stage=stage,
        to_act=to_act,
        hands=tuple(tuple(h) for h in final_hands),
        stock=tuple(stock_cards),
        pile=tuple(pile_cards),
        melds=tuple(table_melds),
        pozzetti=tuple(pozzetti),
        takers=tuple(taker_list),
        locked=sum(1 << s for s in locked),
        forbidden=card(forbidden) if forbidden else NO_CARD,
        last_turn=last_turn,
        pickups=pickups,
        solo=solo,
    )
    if validated:
        validate(state)
    return state
