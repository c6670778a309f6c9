"""Any OpenSpiel game on the kit's table (issue 24, point 3): ``playtest.load("openspiel:...")``
plays with sessions (undo, branches, notes, save and load), live parameters, bots (random, the
kit's MCTS, OpenSpiel's MCTS) and the lab; grid games draw on a clickable grid, others as text
with buttons; imperfect-information games show each seat its own information only; bad names
and parameters are refused. Skipped, with the reason, where ``open_spiel`` is not installed.
"""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("pyspiel", reason="open_spiel is in the interop extra (CPython 3.11+)")

import playtest  # noqa: E402
from playtest.bots import available, build  # noqa: E402
from playtest.interop.spiel_game import SpielMove  # noqa: E402


def test_breakthrough_session_undo_branch_note_save_load(tmp_path):
    game = playtest.load("openspiel:breakthrough", rows=6, columns=6)
    session = playtest.Session(game, seed=1)
    first = session.legal_actions()[0]
    session.play(first)
    session.note("opening")
    session.undo()
    session.play(session.legal_actions()[1])
    assert len(session.branches()) >= 2
    for _ in range(4):
        session.play(random.Random(2).choice(session.legal_actions()))
    path = tmp_path / "bt.json"
    session.save(path)
    again = playtest.Session.load(path)
    assert again.state == session.state and again.game == game


def test_grid_board_has_clickable_cells():
    game = playtest.load("openspiel:breakthrough", rows=6, columns=6)
    scene = game.view(game.initial_state(), 0)
    assert scene["boards"][0]["kind"] == "grid" and scene["boards"][0]["cols"] == 6
    options = [o for opts in scene["moves"].values() for o in opts]
    assert len(options) == len(game.legal_actions(game.initial_state()))
    assert sum(1 for i in scene["items"] if i["kind"] == "piece") == 24


def test_text_board_with_buttons_and_own_information_only():
    game = playtest.load("openspiel:kuhn_poker")
    state = game.initial_state()
    for action in (SpielMove(0), SpielMove(2)):          # seat 0 the jack, seat 1 the king
        state = game.apply(state, action)
    mine = game.view(state, 0)
    assert [b["label"] for b in mine["buttons"]] == ["Pass", "Bet"]
    text0 = str(mine["panels"])
    text1 = str(game.view(state, 1)["panels"])
    table = str(game.view(state, None)["panels"])
    assert text0 != text1 and "0" in text0
    assert game.notation(game.initial_state(), SpielMove(0), viewer=1) == "chance"
    assert table.count("2") == 0                          # the table sees no card
    world = game.determinize(state, 0, random.Random(1))
    assert world.history[0] == 0 and game.view(world, 0)["panels"] == mine["panels"]


def test_simultaneous_openspiel_game_takes_secret_orders():
    game = playtest.load("openspiel:matrix_rps")
    session = playtest.Session(game, seed=1)
    assert session.to_move == playtest.SIMULTANEOUS
    a = session.legal_actions(seat=0)[0]
    session.play(a, seat=0)
    assert session.history(viewer=1)[-1]["notation"] == "Player 0 gives an order"
    session.play(session.legal_actions(seat=1)[1], seat=1)
    assert session.game.outcome(session.state) is not None


def test_live_parameters_and_bots():
    game = playtest.load("openspiel:tic_tac_toe")
    assert "openspiel_mcts" in available(game)
    session = playtest.Session(game, seed=3)
    for seat_bot in (build(game, "random", seed=1), build(game, "mcts", iterations=20, seed=1),
                     build(game, "openspiel_mcts", simulations=20, seed=1)):
        action = session.play_bot(seat_bot)
        assert isinstance(action, SpielMove)
    connect = playtest.Session(playtest.load("openspiel:connect_four"), seed=1)
    connect.play(connect.legal_actions()[0])
    connect.set_params(rows=7)
    assert connect.game.params.rows == 7 and len(connect.state.history) == 1


def test_the_lab_plays_openspiel_games():
    result = playtest.simulate("openspiel:tic_tac_toe", games=6, seed=1, progress=False)
    assert len(result.games) == 6


def test_bad_names_and_parameters_are_refused():
    with pytest.raises(ValueError, match="no game 'nosuchgame'"):
        playtest.load("openspiel:nosuchgame")
    with pytest.raises(ValueError, match="rowz"):
        playtest.load("openspiel:breakthrough", rowz=3)
    with pytest.raises(ValueError, match="rows"):
        playtest.load("openspiel:breakthrough", rows="six")
    with pytest.raises(ValueError, match="mean-field"):
        playtest.load("openspiel:mfg_crowd_modelling")
    with pytest.raises(ValueError, match="breakthrough: OpenSpiel refuses"):
        playtest.load("openspiel:breakthrough", rows=-3)


def test_check_game_passes_on_openspiel_games():
    for name in ("openspiel:tic_tac_toe", "openspiel:kuhn_poker"):
        playtest.check_game(playtest.load(name), examples=3).assert_ok()


def test_a_strangers_file_cannot_ask_for_a_huge_openspiel_game(tmp_path):
    """Parameters read from a session file are a stranger's input: a game too large for the table
    (a million cards, fifty players) is refused by its size, before OpenSpiel makes a first state."""
    import resource
    import time

    with pytest.raises(ValueError, match="100,000 distinct actions; the kit plays games of at most 10,000"):
        playtest.load("openspiel:goofspiel", num_cards=100_000)
    with pytest.raises(ValueError, match="50 players"):
        playtest.load("openspiel:goofspiel", players=50)
    path = tmp_path / "huge.json"
    session = playtest.Session(playtest.load("openspiel:goofspiel", num_cards=4), seed=1)
    session.save(path)
    text = path.read_text()
    assert '"num_cards":4' in text
    huge = text.replace('"num_cards":4', '"num_cards":1000000000')
    path.write_text(huge)
    before, start = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, time.process_time()
    with pytest.raises(ValueError, match="distinct actions"):
        playtest.Session.load(path)
    assert time.process_time() - start < 5
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200_000     # KiB
    assert path.read_text() == huge                  # the file is left as it was


def test_games_that_declare_a_placeholder_default_load_as_openspiel_makes_them():
    """Only parameters set to other than OpenSpiel's declared default are handed to it: dark_chess and
    kriegspiel declare ``fen=""`` (given explicitly, the first crashes the process, the second aborts on a
    piece type) and hanabi declares zero colours; left out, each game fills in its own."""
    for name in ("dark_chess", "kriegspiel", "hanabi"):
        game = playtest.load(f"openspiel:{name}")
        session = playtest.Session(game, seed=1)
        rng = random.Random(1)
        for _ in range(6):
            session.play(rng.choice(session.legal_actions()))
        for seat in range(len(game.seats())):
            assert game.view(session.state, seat)
    board = playtest.load("openspiel:dark_chess", fen="8/8/8/8/8/8/8/K6k w - - 0 1")   # a parameter given is given
    assert len(board.legal_actions(board.initial_state())) == 3                          # the king's three squares


def test_a_placeholder_default_says_it_stands_for_the_games_own():
    """The parameters panel must not tell a designer that hanabi is played with 0 colours: a default
    the game does not report back (``get_parameters()`` of the default game) is a placeholder, and its
    help says so; a real default (breakthrough's 8 rows) is shown as it is."""
    hanabi = {spec.name: spec for spec in playtest.load("openspiel:hanabi").Params.specs()}
    assert hanabi["colors"].default == 0
    assert hanabi["colors"].help == "OpenSpiel's hanabi parameter colors (0: the game's own default)"
    assert hanabi["observation_type"].help.endswith("(empty: the game's own default)")
    rows = {spec.name: spec for spec in playtest.load("openspiel:breakthrough").Params.specs()}["rows"]
    assert (rows.default, rows.help) == (8, "OpenSpiel's breakthrough parameter rows")


def test_games_the_table_cannot_play_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="misere is made from another game .its parameter 'game'.*load the game itself"):
        playtest.load("openspiel:misere")
    with pytest.raises(ValueError, match="zerosum is made from another game"):
        playtest.load("openspiel:zerosum")
    with pytest.raises(ValueError, match="crossword cannot be played at the table: OpenSpiel does not list its actions"):
        playtest.load("openspiel:crossword")


def test_go_moves_sit_on_the_cells_their_stones_fill_and_a_19x19_board_draws_quickly():
    """Go's observation has a plane that is one value over the whole board (the player to play): it
    says nothing of where a move went. Each placement is put on the one cell its stone fills (every
    move had the last stone on the board once a few were down), and the board's planes after a move
    are read once (a 19 x 19 board took 11 s to draw, 0.25 s now)."""
    game = playtest.load("openspiel:go", board_size=9)
    session = playtest.Session(game, seed=1)
    rng = random.Random(1)
    for _ in range(8):
        session.play(rng.choice([a for a in session.legal_actions() if a.id != 81]))    # 81: pass
    scene = game.view(session.state, session.to_move)
    placed = {cell: [m["action"]["id"] for m in moves] for cell, moves in scene["moves"].items()}
    assert all(len(ids) == 1 for ids in placed.values())                  # one stone a cell
    assert len(placed) == len(session.legal_actions()) - 1                # every move but the pass
    for cell, (code,) in placed.items():
        col, row = map(int, cell.split(":")[1].split(","))
        after = game.apply(session.state, SpielMove(code))
        assert game.view(after, None)["items"] != scene["items"]
        planes = game._planes(game._state(after), 0)
        assert planes[:, row, col].tolist() != game._planes(game._state(session.state), 0)[:, row, col].tolist()
    big = playtest.load("openspiel:go")                   # 19 x 19: 361 moves, each placed on its own cell
    state = big.initial_state()
    for code in (40, 41, 60, 61):
        state = big.apply(state, SpielMove(code))
    assert len(big.view(state, 0)["moves"]) == 361 - 4


def test_a_parameter_naming_a_file_is_refused_even_from_a_session_file(tmp_path):
    """OpenSpiel games that read a file named by a parameter (efg_game's filename, bargaining's
    instances_file) are not handed one: parameters may come from a stranger's session file, which
    must not make the kernel read this machine's files. The games load with their own defaults."""
    with pytest.raises(ValueError, match="filename='/etc/passwd' names a file for OpenSpiel to read"):
        playtest.load("openspiel:efg_game", filename="/etc/passwd")
    with pytest.raises(ValueError, match="instances_file"):
        playtest.load("openspiel:bargaining", instances_file="/etc/hostname")
    assert playtest.load("openspiel:bargaining").legal_actions   # its own instances
    path = tmp_path / "stranger.playtest.json"
    playtest.Session.open(path, playtest.load("openspiel:bargaining"), seed=1)
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["params"]["instances_file"] = "/etc/hostname"
    path.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n", encoding="utf-8")
    with pytest.raises((ValueError, playtest.SessionFileError), match="names a file for OpenSpiel to read"):
        playtest.Session.load(path)
