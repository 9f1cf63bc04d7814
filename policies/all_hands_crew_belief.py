"""All Hands crew's beliefs for ``netsearch`` (``belief=returns``, ``belief=memory``).

The Drawing Pile cards another player put back are the stock cards it chose not to hire:
it knows them, the searcher does not. The uniform sampler draws them like any unseen
card. ``returns`` draws them by kind with weight P(put back | drawn into stock), as the
shipped 2-player network plays (``AllHandsCrewGame.sample_state(view, rng,
returned_weights=RETURNED_WEIGHTS)``). ``memory`` (:class:`CrewMemory`) remembers which
of them the searcher has seen before and pins those (``sample_state(..., pinned=...)``).
Why: docs/netsearch.md#all-hands-crew.
"""

from __future__ import annotations

import itertools

import numpy as np

from plunder.envs.core import InvalidArgumentError

#: per kind (components order: six crew kinds, then the Anchor, Cutlass and Kraken
#: captains), the share of the cards drawn into stock that were put back rather than
#: hired: ``measure_returned_weights()`` with its defaults (400 games of the shipped
#: 2-player network against itself, 45,600 stock cards)
RETURNED_WEIGHTS = (0.629, 0.456, 0.384, 0.358, 0.065, 0.629, 0.891, 0.889, 0.794)


def returns_belief(game):
    """``belief=returns``: the cards another player put back drawn by kind with
    ``RETURNED_WEIGHTS`` (the same arguments all game)."""
    from .netsearch import FixedBelief

    return FixedBelief(returned_weights=RETURNED_WEIGHTS)


def measure_returned_weights(games: int = 400, seed: int = 90000,
                             bot: str = "pretrained:final") -> tuple[float, ...]:
    """All Hands crew at 2 players, ``bot`` in both seats (greedy), games dealt from
    ``default_rng(seed + g)``: per kind, the share of the stock cards drawn that were put
    back rather than hired (rounded to 3 places)."""
    from plunder.envs import game_class

    from .base import make_bot

    env_id = "all_hands_crew_v0"
    game = game_class(env_id)(2)
    bots = [make_bot(bot, env_id, 2, seed=s) for s in range(2)]
    drawn = [0] * len(RETURNED_WEIGHTS)
    put_back = list(drawn)
    for g in range(games):
        state = game.new_game(np.random.default_rng(seed + g))
        while not state.is_terminal():
            joint = {p: int(bots[p].act(game.encode(state.view(p)),
                                        state.legal_actions_mask(p)))
                     for p in state.current_players()}
            before = state.clone() if state.phase == "hire" else None
            state.apply_joint(joint)
            if before is not None and state.phase != "hire":     # the hiring just ended
                for p in range(2):
                    hired = set(before.hired[p])
                    if p in joint and joint[p] != game.actions.pass_turn:
                        hired.add(joint[p] - game.actions.hire)
                    for i, k in enumerate(before.stock[p]):
                        drawn[k] += 1
                        put_back[k] += i not in hired
    return tuple(round(b / d, 3) if d else 1.0 for b, d in zip(put_back, drawn))


class CrewMemory:
    """``belief=memory``: what a seat remembers of the cards it saw, after the rules'
    bookkeeping has forgotten them, as ``sample_state(..., pinned=...)`` arguments.

    The view tells a player the cards it knows *now*: a card it put back on its Drawing
    Pile is known until someone draws it, then the view forgets it (drawn blind). A player
    with a memory still knows what that card is and, from the public draws, whose stock
    it went into; when that player hires, the cards it does not hire go back on its own
    pile in stock order, so a remembered card is then either in its Crew Pile or at one
    of the put-back positions. In the shipped 2-player network's self-play, 82% of the
    Drawing Pile positions the opponent knows and the seat does not hold a card the seat
    has seen before.

    ``observe`` takes every view the seat gets, in order, and replays the public draws
    and hires since the previous one on a copy of the piles and stocks whose entries are
    *tags*: ``None`` (never seen), a kind, or ``(r, j)``, the ``j``-th card put back by
    the ``r``-th remembered hire. ``sample_kwargs`` resolves the tags for one sampled
    world: for each remembered hire, which stock cards were hired is drawn with weight
    ``put_back_weights[kind]`` for each card put back and ``1 - weight`` for each card
    hired (a card never seen: the hire's own shares), excluding choices that contradict a
    card seen later; the remembered kinds pin the positions the view does not know, and
    the other positions another player knows are drawn with ``returned_weights``.
    It reads nothing but the views it is given.
    """

    def __init__(self, game, put_back_weights=RETURNED_WEIGHTS):
        try:
            weights = tuple(float(w) for w in put_back_weights)
        except (TypeError, ValueError):
            weights = ()
        if len(weights) != len(RETURNED_WEIGHTS) or not all(0.0 <= w <= 1.0 for w in weights):
            raise InvalidArgumentError(f"CrewMemory: put_back_weights needs "
                                       f"{len(RETURNED_WEIGHTS)} shares in [0, 1], one per "
                                       f"kind, got {put_back_weights!r}")
        self.game = game
        self.weights = weights
        self.reset()

    def reset(self) -> None:
        """Forget the game."""
        self.last = None
        self.piles: list = []      # per pile, bottom->top: a tag per card
        self.stock: list = []      # per seat: a tag per stock card
        self.records: list = []    # remembered hires: (stock tags, cards hired)
        self.evidence: list = []   # ((r, j), kind): a remembered put-back card seen later
        self.resyncs = 0           # views the replay could not explain (memory dropped)

    def observe(self, view) -> None:
        """Bring the memory up to ``view`` (the seat's next view)."""
        last, self.last = self.last, view
        if last is None or last.player != view.player or view.phase == "over":
            self._start(view)
            return
        if view.round == last.round and view.events[:len(last.events)] == last.events:
            first = len(last.events)
        elif view.round == last.round + 1 and last.phase in ("lay", "target"):
            first = 0       # what followed the last view touched no pile (lays, targets)
        else:
            self._start(view, lost=True)
            return
        if not self._replay(view, first):
            self._start(view, lost=True)
            return
        self._overlay(view)

    def sample_kwargs(self, view, rng: np.random.Generator) -> dict:
        """``sample_state`` arguments for one sampled world of ``view`` (the last view
        observed): the remembered cards as ``pinned``, ``returned_weights`` for the rest."""
        if view is not self.last and view != self.last:
            raise ValueError("CrewMemory.sample_kwargs: observe(view) first")
        kinds = self._resolve(rng)
        pool = self.game.unseen_counts(view)
        pinned = {}
        for seat, tags in enumerate(self.piles):
            for i, ((_, seen), tag) in enumerate(zip(view.pile(seat), tags)):
                if seen < 0:
                    self._pin(pinned, pool, ("pile", seat, i), _kind(tag, kinds))
        for seat, tags in enumerate(self.stock):
            for j, tag in enumerate(tags):
                if view.stock[seat][j][0] < 0:
                    self._pin(pinned, pool, ("stock", seat, j), _kind(tag, kinds))
        return {"pinned": pinned, "returned_weights": self.weights}

    # -- replay ---------------------------------------------------------------------------
    def _start(self, view, lost: bool = False) -> None:
        """Begin again from what ``view`` shows (nothing remembered)."""
        self.resyncs += lost
        self.piles = [[None] * len(m) for m in view.pile_masks]
        self.stock = [[None] * len(s) for s in view.stock]
        self.records, self.evidence = [], []
        self._overlay(view)

    def _replay(self, view, first: int) -> bool:
        """Apply ``view.events[first:]`` (draws and hires) to the tags; False if the
        result does not have the view's pile and stock sizes."""
        me = view.player
        extra = self.game.comps.spyglass_extra
        draws = [0] * view.num_players
        for e, (seat, what, arg, count) in enumerate(view.events):
            if what == "draw":
                draws[seat] += 1
                if e < first:
                    continue
                pile = self.piles[arg]
                take = 1 if draws[seat] <= view.draw_target[seat] else extra
                for _ in range(min(take, len(pile))):
                    self.stock[seat].append(pile.pop())
            elif what == "hire" and e >= first:
                tags, self.stock[seat] = self.stock[seat], []
                if len(tags) != arg + count:
                    return False
                if seat == me:           # my own put-back cards: the view shows them
                    self.piles[seat].extend([None] * count)
                else:
                    r = len(self.records)
                    self.records.append((tuple(tags), arg))
                    self.piles[seat].extend((r, j) for j in range(count))
        return ([len(p) for p in self.piles] == [len(m) for m in view.pile_masks]
                and [len(s) for s in self.stock] == [len(s) for s in view.stock])

    def _overlay(self, view) -> None:
        """Write what the view knows over the tags; a remembered put-back card seen
        again becomes evidence about its hire."""
        for seat, seen in enumerate(view.pile_seen):
            for i, kind in seen:
                self._see(self.piles[seat], i, kind)
        for seat, slots in enumerate(view.stock):
            for j, (kind, _) in enumerate(slots):
                if kind >= 0:
                    self._see(self.stock[seat], j, kind)

    def _see(self, tags: list, i: int, kind: int) -> None:
        """The card tagged ``tags[i]`` is seen to be ``kind``."""
        if isinstance(tags[i], tuple):
            self.evidence.append((tags[i], kind))
        tags[i] = kind

    # -- sampling -------------------------------------------------------------------------
    def _resolve(self, rng: np.random.Generator) -> dict:
        """One draw of every remembered hire: ``(r, j)`` -> kind or None."""
        out: dict = {}
        seen = {}
        for ref, kind in self.evidence:
            seen.setdefault(ref, kind)
        for r, (tags, hired) in enumerate(self.records):
            kinds = [_kind(t, out) for t in tags]
            n = len(kinds)
            back = n - hired
            choices, weights = [], []
            for chosen in itertools.combinations(range(n), hired):
                put = [i for i in range(n) if i not in chosen]
                w = 1.0
                for i, k in enumerate(kinds):
                    if k is None:
                        w *= hired / n if i in chosen else back / n
                    else:
                        w *= 1.0 - self.weights[k] if i in chosen else self.weights[k]
                if any(kinds[i] is not None and seen.get((r, j), kinds[i]) != kinds[i]
                       for j, i in enumerate(put)):
                    w = 0.0     # a put-back card seen again later is another kind
                choices.append(put)
                weights.append(w)
            total = sum(weights)
            if total <= 0:      # nothing fits what was seen: no preference
                weights, total = [1.0] * len(choices), float(len(choices))
            c = rng.choice(len(choices), p=np.asarray(weights) / total)
            for j, i in enumerate(choices[c]):
                out[(r, j)] = kinds[i]
        return out

    @staticmethod
    def _pin(pinned: dict, pool: list, key: tuple, kind) -> None:
        """Pin ``kind`` at ``key`` if it is known and an unseen copy is left."""
        if kind is not None and pool[kind] > 0:
            pool[kind] -= 1
            pinned[key] = kind


def _kind(tag, resolved: dict):
    """A tag's kind in one resolution (None: never seen)."""
    if isinstance(tag, tuple):
        return resolved.get(tag)
    return tag
