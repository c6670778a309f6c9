"""The OpenSpiel adapter's speed-ups of issue 24 (a TTWO token's steps read from masks kept by
surroundings, a wall turn's bans that only the tokens decide kept for the turn, a dense run
numbered from the last one of its table, a kind of action chosen at once, a simultaneous step and
a chance step played inline) change nothing: each answer equals the one the code gave before, over
the positions of seeded random games (several parameter sets), and the checked path still refuses
what it refused."""

from __future__ import annotations

import random

import pytest

import playtest
from playtest.games.then_there_was_one.actions import Build, Buy
from playtest.geometry import bits, popcount
from playtest.kernel.encoding import ActionEncoding

TOKEN_VARIANTS = [
    {},
    {"num_players": 3, "max_jumps_per_turn": 2, "jump_step_cost": 2},
    {"allow_voluntary_revisit": True, "max_jumps_per_turn": 3},
    {"goal_on_entry": False, "start_tile_counts": False, "tokens_block_tokens": False, "move_length": 4},
    {"num_players": 5, "board_width": 8, "board_length": 10, "jump_allow_obstacle_wall": False,
     "max_walls_at_jump_corner": 0, "max_jumps_per_turn": 2},
]
WALL_VARIANTS = [
    {},
    {"bought_obstacle_may_border_token": False, "wall_token_clearance": "edge_or_corner"},
    {"bought_obstacle_may_border_token": False, "first_turn_ban_applies_to_obstacles": False,
     "max_obstacles_per_turn": 4, "obstacle_cost": 1},
    {"first_turn_black_line_ban": False, "max_bought_obstacles_per_game": 2, "wall_budget": 5},
    {"require_open_corridor": True, "num_players": 3},
]


def _positions(game, games, seed=0):
    """The positions of ``games`` seeded random games (half the steps uniform over the listing, so
    the wall turns build and pick up walls and buy obstacles at length; half the game's sampler)."""
    for g in range(games):
        rng = random.Random(seed + g)
        state = game.initial_state()
        while game.to_move(state) is not None:
            yield state
            if game.to_move(state) == playtest.CHANCE:
                state = game.apply(state, game.chance_outcome(state, rng))
                continue
            legal = game.legal_actions(state)
            state = game.apply(state, rng.choice(legal) if rng.random() < 0.5 else game.random_action(state, rng))


@pytest.mark.parametrize("params", TOKEN_VARIANTS)
def test_move_masks_are_the_legal_token_moves_for_many_rules(params):
    """TokenPaths.move_masks (its steps by surroundings, the rules' numbers kept) answers what
    legal_token_moves answers (TokenPaths.token_moves, the search as it was)."""
    game = playtest.load("then_there_was_one", **params)
    checked = jumps_met = 0
    for state in _positions(game, 25, seed=100):
        if state.phase != "token":
            continue
        steps, jumps = game.paths.move_masks(state)
        moves = game.legal_token_moves(state)
        assert steps == sum(1 << n for n, j in moves if not j)
        assert jumps == sum(1 << n for n, j in moves if j)
        checked += 1
        jumps_met += jumps != 0
    assert checked > 150 and jumps_met > 0


def test_move_masks_follow_a_change_of_rules_object():
    """A state that carries other rules (a live change) is answered with its own rules: what
    move_masks keeps for one rules object is not read for another."""
    game = playtest.load("then_there_was_one")
    other = game.params.replace(max_jumps_per_turn=0)
    checked = 0
    for state in _positions(game, 8, seed=7):
        if state.phase != "token":
            continue
        for rules in (other, game.params, other):
            changed = state.replace(rules=rules)
            game.paths.here = None
            steps, jumps = game.paths.move_masks(changed)
            moves = game.legal_token_moves(changed)
            assert (steps, jumps) == (sum(1 << n for n, j in moves if not j), sum(1 << n for n, j in moves if j))
            if rules is other:
                assert jumps == 0
        checked += 1
    assert checked > 50


def _former_wall_bans(game, state):
    """``_wall_bans`` as the rules wrote it before its bans were split by what changes them."""
    rules, B = state.rules, game.B
    bans = [(state.walls | state.built, "there is already a wall on {}", "A.1 §14")]
    used = game.points_used(state)
    if used + 1 > rules.wall_budget:
        bans.append((B.inner, f"the budget is spent: {used} of {rules.wall_budget} points used, walls left "
                              "standing included", "A.1 §14.1"))
    extra = " or touch its corners" if rules.wall_token_clearance == "edge_or_corner" else ""
    bans.append((game.clearance_edges(state), f"a wall may not lie on an edge of a token's tile{extra} ({{}})",
                 "A.1 §14.3"))
    if state.first_wall_turn and rules.first_turn_black_line_ban:
        bans.append((B.zone_edges, "nothing is built behind the black line on the wall player's first turn "
                                   "({})", "A.1 §14.4"))
    return bans


def _former_buy_bans(game, state):
    """``_buy_bans`` as the rules wrote it before (the same order: a refusal names the first)."""
    rules, B = state.rules, game.B
    tokens = game.paths.token_cells(state)
    bans = [(state.obstacles, "{} already holds an obstacle", "A.1 §14.2"),
            (tokens, "a token stands on {}", "A.1 §14.2")]
    bought, used = popcount(state.bought), game.points_used(state)
    if bought >= rules.max_obstacles_per_turn:
        bans.append((B.all, f"{bought} obstacles were bought this turn already "
                            f"(max_obstacles_per_turn = {rules.max_obstacles_per_turn})", "A.1 §14.2"))
    if state.bought_total >= rules.max_bought_obstacles_per_game:
        bans.append((B.all, f"{state.bought_total} obstacles were bought in this game already "
                            f"(max_bought_obstacles_per_game = {rules.max_bought_obstacles_per_game})", "A.1 §14.2"))
    if used + rules.obstacle_cost > rules.wall_budget:
        bans.append((B.all, f"an obstacle costs {rules.obstacle_cost} points and only "
                            f"{rules.wall_budget - used} are left", "A.1 §14.1"))
    if state.first_wall_turn and rules.first_turn_black_line_ban and rules.first_turn_ban_applies_to_obstacles:
        bans.append((B.zone, "nothing is built behind the black line on the wall player's first turn ({})",
                     "A.1 §14.4"))
    if not rules.bought_obstacle_may_border_token:
        table = B.adj8 if rules.wall_token_clearance == "edge_or_corner" else B.adj4
        border = 0
        for t in bits(tokens):
            border |= table[t]
        bans.append((border, "a bought obstacle may not border a token ({}; bought_obstacle_may_border_token)",
                     "A23"))
    return bans


@pytest.mark.parametrize("params", WALL_VARIANTS)
def test_wall_turn_bans_and_masks_are_those_of_before(params):
    """The bans (texts and order: a refusal names the first) are the former ones, and the masks
    the listing reads, whose turn-long part is kept by the tokens, the first turn and the rules,
    are every ban or'ed, also when the same game object meets other positions in between."""
    game = playtest.load("then_there_was_one", **params)
    checked = full = 0
    for state in _positions(game, 14, seed=300):
        if state.phase != "wall":
            continue
        walls, buys = _former_wall_bans(game, state), _former_buy_bans(game, state)
        assert game._wall_bans(state) == walls and game._buy_bans(state) == buys
        banned_edges = banned_tiles = 0
        for mask, _, _ in walls:
            banned_edges |= mask
        for mask, _, _ in buys:
            banned_tiles |= mask
        assert game._build_mask(state) == game.B.inner & ~banned_edges
        assert game._buy_mask(state) == game.B.all & ~banned_tiles
        assert [m for m, _, _ in game._wall_bans(state, texts=False)] == [m for m, _, _ in walls]
        checked += 1
        full += game._buy_mask(state) == 0
    assert checked > 100 and full > 0


def test_a_refusal_of_a_wall_turn_names_the_same_rule():
    """why_not reads the same bans: a few refusals, written out."""
    game = playtest.load("then_there_was_one", bought_obstacle_may_border_token=False)
    state = game.state_from_json({"tokens": {"1": [2, 0], "2": [5, 0], "3": [8, 0]}, "round": 2})
    assert str(game.why_not(state, Buy((2, 0)))) == "a token stands on c1 (rule A.1 §14.2)"
    assert "may not border a token" in str(game.why_not(state, Buy((3, 0))))
    assert game.why_not(state, Buy((4, 5))) is None
    spent = state.replace(bought_total=8)
    assert str(game.why_not(spent, Buy((2, 0)))) == "a token stands on c1 (rule A.1 §14.2)"
    assert "8 obstacles were bought in this game already" in str(game.why_not(spent, Buy((4, 5))))
    e = game.B.edge_bit(game.B.index((2, 0)), game.B.index((2, 1)))
    assert "edge of a token's tile" in str(game.why_not(state, game.wall_action(Build, e)))


def test_a_dense_run_numbered_from_the_last_one_is_numbered_as_selected():
    """_run_ids with a shape's ``near``: sequences of masks of a wall turn's tables (a bit or a few
    changed at a time, now and then many) give the ids select_ids gives, sorted; a run whose
    action would take a spare id is still refused (None)."""
    from playtest.interop.core import KitShape
    from playtest.interop.runs import _near_ids, _run_ids
    game = playtest.load("then_there_was_one")
    encoding = KitShape.of(game).encoding
    rng = random.Random(3)
    for kind, full in ((Build, game.B.inner), (Buy, game.B.all)):
        table = game._made_actions(kind)
        memo: dict = {}
        near: dict = {}
        mask = full
        used = 0
        for _ in range(400):
            flips = rng.choice([1, 1, 2, 3, 8, 30])
            for _ in range(flips):
                mask ^= 1 << rng.choice(list(bits(full)))
            got = _run_ids(memo, encoding.select_ids, [(table, mask)], near)
            assert got == sorted(encoding.ids(list(bits_select(table, mask))))
            used += id(table) in near
        assert used > 300
    ttt = playtest.load("tic_tac_toe")
    spare = ActionEncoding(ttt, [ttt.action_types[0](i) for i in range(4)], spare=4)     # cells 0-3 met only
    table = tuple(ttt.action_types[0](i) for i in range(9))
    codes: list = [None] * 9
    assert _near_ids(spare.select_ids, table, codes, 0b1111, (0, 1, 2, 3), 0b11110) is None   # cell 4: spare
    assert _near_ids(spare.select_ids, table, codes, 0b1111, (0, 1, 2, 3), 0b1110) == [1, 2, 3]


def bits_select(table, mask):
    return [table[i] for i in bits(mask)]


def test_openspiel_random_simulations_still_pass():
    """pyspiel's own random simulation test (serialization, clones, legality) on the two games."""
    pyspiel = pytest.importorskip("pyspiel")
    from playtest.interop.openspiel import register
    for name, sims in (("then_there_was_one", 2), ("goofspiel", 8)):
        pyspiel.random_sim_test(register(name), num_sims=sims, serialize=True, verbose=False)


def test_a_kind_id_picked_from_the_listing_is_played_and_another_refused():
    """Staged: a kind id of the listing just made is chosen at once (one action: played); a kind id
    not listed is refused by the checked path, and nothing changes."""
    pytest.importorskip("pyspiel")
    from playtest.interop.openspiel import kit_state, register
    spiel = register("then_there_was_one")
    rng = random.Random(4)
    chosen = refused = 0
    for g in range(3):
        state = spiel.new_initial_state()
        while not state.is_terminal() and chosen < 40:
            if state.is_chance_node():
                state.apply_action(state.chance_outcomes()[0][0])
                continue
            legal = state.legal_actions()
            base = state.play.shape.encoding.capacity
            kinds = [c for c in legal if c >= base]
            if kinds:
                unlisted = [base + k for k in range(len(state.play.shape.encoding.types)) if base + k not in legal]
                if unlisted:
                    before = kit_state(state)
                    with pytest.raises(Exception, match="not legal"):
                        state.apply_action(unlisted[0])
                    assert kit_state(state) is before and state.legal_actions() == legal
                    refused += 1
                code = rng.choice(kinds)
                ids = len(state.play.ids)
                state.apply_action(code)
                assert state.play.ids[ids] == code
                chosen += 1
            else:
                state.apply_action(rng.choice(legal))
    assert chosen >= 40 and refused > 0


def test_inline_simultaneous_and_chance_steps_keep_the_history():
    """Goofspiel through the adapter: the inline steps record what KitPlay._play records (the
    actions, seats and ids, in turn), so the positions replayed from them are the ones played,
    and a play whose earlier positions were asked for keeps them step by step."""
    pytest.importorskip("pyspiel")
    from playtest.interop.openspiel import kit_state, register
    spiel = register("goofspiel")
    game = playtest.load("goofspiel")
    rng = random.Random(9)
    for watch in (False, True):
        state = spiel.new_initial_state()
        while not state.is_terminal():
            if watch:
                state.information_state_string(0)
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
            else:
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(2)])
        play = state.play
        replayed = game.initial_state()
        for before, action, seat, _ in play.history:
            assert before == replayed
            replayed = game.apply(replayed, action)
        assert replayed == kit_state(state) and len(play.ids) == len(play._acts) == len(play._seats)
        assert play._seats.count(-1) == 12 and len(play._seats) == 36     # (the last card plays itself)
