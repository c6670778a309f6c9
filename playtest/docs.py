"""Documentation generated from the games' declarations (the README's parameter tables).

>>> print(parameter_table("eat_thyself").splitlines()[0])
| parameter | default | allowed | when | source | meaning |

Run ``python -m playtest.docs`` to print every game's section, or
``python -m playtest.docs --write README.md`` to refresh the README between its
``<!-- games:start -->`` and ``<!-- games:end -->`` markers (a test checks the
README is current).
"""

from __future__ import annotations

from .rules import ParamSpec, game_class, games, show_value

__all__ = ["parameter_table", "games_markdown", "games_list"]

_SOURCE = {"seed": "seed text", "public": "public material", "assumed": "assumed"}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _row(spec: ParamSpec) -> str:
    when = "live" if spec.live else "new game"
    rule = f" ({spec.rule})" if spec.rule else ""
    return (f"| `{spec.name}` | `{_cell(show_value(spec.default))}` | {_cell(spec.allowed())} | {when} | "
            f"{_SOURCE[spec.source]} | {_cell(spec.help)}{rule} |")


def parameter_table(name: str) -> str:
    """The Markdown table of game ``name``'s rule parameters, from their declarations."""
    specs = game_class(name).Params.specs()
    lines = ["| parameter | default | allowed | when | source | meaning |",
             "| --- | --- | --- | --- | --- | --- |"]
    lines += [_row(spec) for spec in specs]
    return "\n".join(lines)


class _Markdown(str):
    def _repr_markdown_(self) -> str:
        return str(self)


def games_markdown() -> str:
    """A README section per game: title, credit, and its parameter table."""
    parts = []
    for name in games():
        cls = game_class(name)
        parts.append(f"### {cls.title} (`playtest.load(\"{name}\")`)\n\n{cls.credit}\n\n{parameter_table(name)}\n")
    return _Markdown("\n".join(parts))


def _players(name: str) -> str:
    spec = {s.name: s for s in game_class(name).Params.specs()}.get("num_players")
    if spec is not None and spec.min is not None and spec.max is not None and spec.min != spec.max:
        return f"{spec.min}–{spec.max} players"
    return f"{len(game_class(name)().seats())} players"


def games_list(link: str | None = None) -> str:
    """A Markdown list of the games (from the registry): each one's title, what it is, how many play,
    and its numbered rules page. ``link`` (``"{name}.ipynb"``) makes each title a link.

    >>> print(games_list().splitlines()[2])
    * **Eat Thyself**: kings eat their own pawns around a ring; one piece left wins (2–3 players). Rules: `playtest.rules_page("eat_thyself")`.
    """
    lines = []
    for name in games():
        cls = game_class(name)
        title = f"[{cls.title}]({link.format(name=name)})" if link else cls.title
        what = (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""
        what = what.removeprefix(f"{cls.title}:").strip().rstrip(".")
        lines.append(f"* **{title}**: {what} ({_players(name)}). Rules: `playtest.rules_page(\"{name}\")`.")
    return _Markdown("\n".join(lines))


START, END = "<!-- games:start -->", "<!-- games:end -->"


def refresh_readme(text: str) -> str:
    """``text`` with the part between the games markers regenerated."""
    if START not in text or END not in text:
        raise ValueError(f"the README needs the markers {START} and {END}")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n\n{games_markdown()}\n{END}{tail}"


if __name__ == "__main__":
    import sys
    from pathlib import Path

    if len(sys.argv) == 3 and sys.argv[1] == "--write":
        readme = Path(sys.argv[2])
        readme.write_text(refresh_readme(readme.read_text(encoding="utf-8")), encoding="utf-8")
    else:
        print(games_markdown())
