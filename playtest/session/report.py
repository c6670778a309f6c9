"""Reports: a session in Markdown, inert (no text from a file or a person is ever live)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any, Callable

from ..rules import Game, Outcome, show_value
from .tree import Branch, Note, _Node

class Report(str):
    """A Markdown text that notebooks display as Markdown."""

    def _repr_markdown_(self) -> str:
        return str(self)


class SessionReports:
    """The report half of :class:`playtest.Session`."""

    _notes: list[Note]
    _nodes: list[_Node]
    _cur: _Node

    if TYPE_CHECKING:       # the Session's
        @property
        def game(self) -> Game[Any, Any, Any]: ...
        @property
        def state(self) -> Any: ...
        @property
        def outcome(self) -> Outcome | None: ...
        def branches(self) -> list[Branch]: ...

    def report(self, viewer: int | None = None) -> Report:
        """A Markdown summary: parameters, moves in notation, notes at their moves, the result.

        ``viewer`` is who reads it: ``None`` (the table: no seat's secrets) or a
        seat (its own secrets too). Every text from users or files is inert
        Markdown: no links, images or HTML.
        """
        game = self.game
        esc = _md_escape
        lines = [f"# {game.title}: playtest report", ""]
        if game.credit:                  # (an empty one would print a stray "**")
            lines += [f"*{esc(game.credit)}*", ""]
        lines += ["## Parameters", ""]
        lines += ["| parameter | value | default |", "| --- | --- | --- |"] if game.params.specs() else [
            "The game has no parameters."]      # (not a table's header with no row)
        for spec in game.params.specs():
            value = getattr(game.params, spec.name)
            mark = " **(changed)**" if value != spec.default else ""
            lines.append(f"| `{spec.name}` | {esc(show_value(value))}{mark} | {esc(show_value(spec.default))} |")
        seats = ", ".join(f"{i}: {esc(s.name)}" for i, s in enumerate(game.seats()))
        lines += ["", f"Seats: {seats}", "", "## Moves", ""]
        notes_by_node: dict[int, list[Note]] = {}
        for note in self._notes:
            notes_by_node.setdefault(note.node, []).append(note)
        back: list[_Node] = []
        node: _Node | None = self._cur
        while node is not None:
            back.append(node)
            node = node.parent
        for node in reversed(back):
            if node.kind == "root":
                text = "start"
            elif node.kind == "params":
                text = f"⚙ {esc(node.notation or '')}"
            elif node.kind == "chance":
                text = f"🎲 {esc(node.notation_for(viewer))}"
            else:
                text = f"{node.depth}. {esc(node.notation_for(viewer))}"
            lines.append(f"- {text}")
            for note in notes_by_node.get(node.id, []):
                lines.append(f"  - 📝 {_by(note.author, esc)}{esc(note.text)}")
        other = [n for n in self._notes if n.node not in {b.id for b in back}]
        if other:
            lines += ["", "## Notes on other branches", ""]
            for note in other:
                lines.append(f"- move {note.move} (position {note.node}): {_by(note.author, esc)}{esc(note.text)}")
        lines += self._report_by_author(viewer)
        outcome = self.outcome
        lines += ["", "## Result", ""]
        if outcome is None:
            lines.append(f"Not finished: {esc(game.describe_state(self.state))}, move {self._cur.depth}.")
        elif outcome.is_draw:
            lines.append(f"Draw: {esc(outcome.reason)}.")
        else:
            names = ", ".join(esc(game.seats()[w].name) for w in outcome.winners)
            lines.append(f"Won by {names}: {esc(outcome.reason)}.")
        lines.append("")
        return Report("\n".join(lines))

    def _report_by_author(self, viewer: int | None) -> list[str]:
        """Each author's lines of play and notes, when several people played (a merged session)."""
        authors = sorted({n.by for n in self._nodes[1:] if n.by} | {n.author for n in self._notes if n.author})
        if len(authors) < 2:
            return []
        esc = _md_escape
        out = ["", "## By author", ""]
        leaves = [b for b in self.branches()]
        for author in authors:
            out.append(f"### {esc(author)}")
            out.append("")
            mine = [b for b in leaves if self._nodes[b.leaf].by == author]
            played = [n for n in self._nodes[1:] if n.by == author]
            if played:
                shown = [f"{n.depth}. {esc(n.notation_for(viewer))}" if n.kind == "move" else
                         f"{'🎲' if n.kind == 'chance' else '⚙'} {esc(n.notation_for(viewer))}"
                         for n in played[:_MOVES_SHOWN]]
                more = f" and {len(played) - _MOVES_SHOWN:,} more" if len(played) > _MOVES_SHOWN else ""
                out.append(f"- moves first played by them ({len(played):,}): " + ", ".join(shown) + more)
            for branch in mine:
                leaf = self._nodes[branch.leaf]
                last = leaf.notation_for(viewer) if leaf.action is not None else "start"
                out.append(f"- line to move {branch.moves} (position {branch.leaf}), "
                           f"last: {esc(last)}")
            for note in (n for n in self._notes if n.author == author):
                out.append(f"- 📝 move {note.move} (position {note.node}): {esc(note.text)}")
            if not mine and not played and not any(n.author == author for n in self._notes):
                out.append("- nothing of their own")
            out.append("")
        return out


#: moves listed per author in a merged report (the rest are counted)
_MOVES_SHOWN = 200


def _by(author: str, esc: Callable[[str], str]) -> str:
    return f"**{esc(author)}**: " if author else ""


# Markdown syntax that could make text live: emphasis, code, links and images ([ ] !), tables (|),
# headings (#), autolinks (the : of a scheme, the . of www.), maths ($); HTML is escaped first.
_MD_SPECIAL = {c: "\\" + c for c in "\\`*_[]!#|~:.$"}


def _md_escape(text: str) -> str:
    """User or file text for Markdown, inert: HTML shows as text, and no link, image,
    autolink, emphasis or table syntax survives; line breaks become spaces.

    >>> print(_md_escape("[x](javascript:alert(1)) ![](http://a.b/c) <b>hi</b>"))
    \\[x\\](javascript\\:alert(1)) \\!\\[\\](http\\://a\\.b/c) &lt;b&gt;hi&lt;/b&gt;
    """
    return "".join(_MD_SPECIAL.get(c, c) for c in html.escape(" ".join(text.split()), quote=False))
