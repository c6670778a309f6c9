"""``check_game``: the conformance suite a game must pass, runnable from a notebook cell (a
readable report) and from pytest (one call per game, failing with the property, the seat and a
minimal history).

>>> import playtest
>>> report = playtest.check_game("secret_bid", examples=3, seed=1)
>>> report.ok, report.failures
(True, [])

First the **declarations**: what ``register`` refuses in a declared game (kernel rule K4: a number
parameter without its range, a ``Params`` field written without ``param()``) and only warns of in a
game written the older way, which registers as it did before K4. Then, over random games (chance
drawn with a seeded generator), it checks as it plays (**plays**) that
``to_move`` names a seat of the game, ``CHANCE``, ``SIMULTANEOUS`` or ``None``; that a chance step
lists each outcome once with probabilities from 0 to 1 adding up to 1; and that a finished game's
``outcome`` names different seats as winners, its payoffs (one finite number per seat) stay within
``returns_range()`` and its ``running_scores`` give one finite number per seat. Then, position by
position:

* **json**: a position reads back from its own JSON form;
* **listed actions are accepted**: ``apply`` takes every action ``legal_actions`` lists, and
  leaves the position it was played from as it was (an ``effect`` that assigns into a dict or
  list of the state it was given changes every copy sharing it: checked where the random games'
  steps are replayed and where the listed actions are played, by the position's JSON form);
* **illegal actions are refused**: actions legal elsewhere but not here, listed actions with a
  whole number set off its range (-1, one past the largest listed, a million), and actions no
  listing offers (every kind of action without fields, listed ones with a field changed: a
  number one up or down, a flag turned, another value the field takes), raise
  ``IllegalAction`` (never another error) and change nothing: an action ``why_not`` allows that
  ``candidates`` does not list is never offered at the table;
* **random action is legal**: the rules' own samplers draw only what the rules allow:
  ``random_action`` (the kit's random bot plays it, and the lab takes its word) gives an action
  ``check`` accepts, and in a simultaneous step ``random_order_parts`` (when the game writes it)
  gives parts each accepted after the ones before, the last one submitting the seat's order;
* **playout** (a game that writes :meth:`playtest.Game.random_playout`): from the position, the
  game's own playout plays what :func:`playout_by_rules` plays with the same generators (a few
  turns, now and then to the end; with and without a generator per seat, a step cap now and
  then; half the time with the options wanted at some decisions only, ``PlayoutLog.at``): the
  same state reached, the same steps, the same report (each wanted decision's number of legal
  actions, the decisions played, the running scores at turn ends, the first decider), the
  generators left in the same state; and, in a game with secrets, ``random_action`` draws as ``rng.choice`` of the
  legal actions does (the lab's random bot picks from its listing there);
* **runs** (a game that writes ``legal_runs``, read by :mod:`playtest.interop`): the runs
  ``[(table, mask), ...]`` select exactly the actions ``legal_actions`` lists, each once, the same
  objects, each table one kind of action, the kinds in the listing's order;
* **orders** (a game that writes :meth:`playtest.Game.all_orders`, read by :mod:`playtest.interop`):
  at a simultaneous step, each pending seat's listed complete orders give parts the rules accept
  one after another, each order completed by its last part only, and they are the orders the
  kit's search finds (:func:`playtest.interop.orders.complete_orders`), in the same order;
* **seats' lists**: a seat is offered only its own actions (none when another seat is to move);
* **scene**: every viewer's board offers exactly its legal actions, each id drawn once;
* **notation**: no two legal actions share a notation for a viewer;
* **secrecy** (games with secrets): every world ``determinize`` redraws is a position the game
  accepts (read back from its JSON form as a file's is: declarations, lengths, ``check_state``);
  two positions a seat cannot tell apart (``determinize``) give it the same board, the same choices, the same ``determinize``, and the same move from
  every bot: the random bot at every position, and every other bot registered for the game
  (greedy bots, the search bot with a few iterations, a designer's own) at one position in
  :data:`BOT_SAMPLE`;
  **a log never tells a seat more than its board**: two actions whose results look the same to
  a seat must read the same to it in the move log (it may tell less: a log line may say only
  "North gives an order" while the board shows nothing at all);
* **perfect information**: a game declaring perfect information shows the same board to every
  seat that cannot act (each seat seeing something of its own is hidden information);

and over whole games: **undo/redo** restores every position, **save/load** replays every
position, and random play **ends** within the game's declared longest game. The random games are
played as the lab's random player plays them: a uniform pick among the legal actions, chance drawn
by its probabilities, and in a simultaneous step of a game that writes ``random_order_parts`` the
first pending seat's whole order drawn at once, its parts played one step each (each checked).

One concern per file: :mod:`.suite` (``check_game``, the driver), :mod:`.report` (what it reports),
:mod:`.plays` (the random games, **plays** and **ends**), :mod:`.records` (**json**, **undo/redo**,
**save/load**), :mod:`.actions` (**listed actions are accepted**, **illegal actions are refused**,
**seats' lists**), :mod:`.shortcuts` (**random action is legal**, **runs**, **orders**), :mod:`.playout`
(**playout** and its reference :func:`playout_by_rules`), :mod:`.views` (**scene**, **notation**),
:mod:`.secrecy` (**secrecy**, **perfect information**); :mod:`.positions` and :mod:`.messages`
serve them all.
"""

from __future__ import annotations

from .messages import _one_line as _one_line          # (tests read an error's line as the report words it)
from .playout import playout_by_rules as playout_by_rules
from .report import PROPERTIES, CheckFailure, CheckReport, GameCheckFailed
from .secrecy import BOT_SAMPLE as BOT_SAMPLE
from .suite import check_game

__all__ = ["check_game", "CheckReport", "CheckFailure", "GameCheckFailed", "PROPERTIES"]
