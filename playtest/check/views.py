"""The properties of what a viewer is shown: **scene** (every viewer's board offers exactly its
legal actions, each item id once) and **notation** (no two legal actions written alike)."""

from __future__ import annotations

import json
import random
from typing import Any

from ..kernel import CHANCE, SIMULTANEOUS, Game
from .messages import _repr
from .report import CheckFailure, CheckReport, _count, _Stop


def _viewers(game: Game[Any, Any, Any], state: Any) -> list[tuple[int | None, list[Any]]]:
    mover = game.to_move(state)
    if mover in (None, CHANCE) or (mover != SIMULTANEOUS and not game.has_secrets):
        return [(None, game.legal_actions(state) if mover not in (None, CHANCE) else [])]
    return [(seat, game.legal_actions(state, seat)) for seat in range(len(game.seats()))] + [(None, [])]


def _options(scene: dict[str, Any]) -> set[str]:
    options = [o for opts in scene.get("moves", {}).values() for o in opts]
    options += [o for targets in scene.get("selects", {}).values() for opts in targets.values() for o in opts]
    options += scene.get("buttons", [])
    return {json.dumps(o["action"], sort_keys=True) for o in options}


def _scene(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random, seen: list[Any]) -> None:
    for viewer, actions in _viewers(game, state):
        _count(report, "scene")
        scene = game.view(state, viewer)
        if not isinstance(scene, dict):
            raise _Stop(CheckFailure("scene", f"view() returned {_repr(scene)}, not a scene: a dict, as "
                                              "board_view(self, state, seat, ...) or Scene() make it", viewer))
        json.dumps(scene)
        offered = _options(scene)
        legal = {json.dumps(a.to_json(), sort_keys=True) for a in actions}
        if offered != legal:
            extra = sorted(offered - legal)[:1]
            missing = sorted(legal - offered)[:1]
            what = f"offers {extra[0]}, which is not legal" if extra else f"does not offer the legal {missing[0]}"
            raise _Stop(CheckFailure("scene", f"the board {what}", viewer))
        for action in actions:
            if game.action_from_json(json.loads(json.dumps(action.to_json()))) != action:
                raise _Stop(CheckFailure("scene", f"{action}'s JSON does not read back as the same action", viewer))
        ids = [item["id"] for item in scene.get("items", []) if "id" in item]
        if len(ids) != len(set(ids)):
            raise _Stop(CheckFailure("scene", "two items of the board share an id", viewer))


_scene.property = "scene"  # type: ignore[attr-defined]


def _notation(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random,
              seen: list[Any]) -> None:
    for viewer, actions in _viewers(game, state):
        _count(report, "notation")
        written = [game.notation(state, action, viewer) for action in actions]
        if len(set(written)) != len(written):
            twice = next(w for w in written if written.count(w) > 1)
            raise _Stop(CheckFailure("notation", f"two legal actions are both written {twice!r}", viewer))


_notation.property = "notation"  # type: ignore[attr-defined]
