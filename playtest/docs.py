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

__all__ = ["parameter_table", "games_markdown"]

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
