"""The evening's pages and files (issue 30), plain HTTP (no NiceGUI client: a printable page is a document):

- ``/r/CODE/games/N``: game N's protocol, the club's paper protocol (seats, names, roles, fouls, points, then every
  line of the game in order), readable on a phone and printed on one A4 page (its print CSS);
- ``/r/CODE/games/N.csv``: the same as CSV; ``/r/CODE/games/N.json``: the game as a scenario file
  (``python -m engine.replay`` replays it); ``/r/CODE/standings.csv``: the evening's standings.

Who may: a browser that holds a seat of the room (one who left included: the seat is kept), i.e. everyone who was
in the room; the host's link opens for anyone he shares it with who was there. Never before the game ends: a
running game is "not found", like a wrong code (its roles are the worst leak). Everything is read from the database,
so it answers in any process of a cluster. Every word in the reader's language; headers of the CSV files too.
"""

from __future__ import annotations

import csv
import html
import io
import json
from urllib.parse import quote

from fastapi.responses import HTMLResponse, Response
from nicegui import app
from starlette.requests import Request

from webgame.evening import standings as evening
from webgame.evening.protocol import Protocol, load_protocol, load_scenario
from webgame.language.i18n import N_, Translator
from webgame.pages import components, wording
from webgame.store import queries as store
from webgame.store.records import RoomRecord

LEFT = {"vote": N_("Voted out"), "fouls": N_("Removed for fouls"), "kamikaze": N_("Taken along by the kamikaze")}
KILLED = N_("Killed at night")  # the other causes: a night's (RULES.md)
NOT_FOUND = N_("There is no such game here, or it is not over yet.")
PRINT_CSS = (  # static: no player text
    "body{font-family:system-ui,sans-serif;margin:0;padding:12px;max-width:60rem}"
    "table{border-collapse:collapse;width:100%;font-size:.9rem}th,td{border:1px solid #999;padding:2px 4px;"
    "text-align:left;vertical-align:top}td.n{text-align:right}h1{font-size:1.3rem;margin:.2rem 0}"
    "h2{font-size:1.05rem;margin:.6rem 0 .2rem}ol{padding-left:1.4rem;margin:0;font-size:.9rem}"
    ".links a{margin-right:1rem;display:inline-block}.scroll{overflow-x:auto}th{hyphens:auto;font-weight:600}"
    ".m{display:none}@media screen and (max-width:40rem){.x{display:none}.m{display:block;font-size:.8em;"
    "color:#555}body{padding:8px}table{font-size:.8rem}th,td{padding:2px 3px}}"  # a phone: who, role (how he left
    # under it), fouls, points
    "@media print{@page{size:A4;margin:10mm}body{padding:0;font-size:8pt;max-width:none}.links{display:none}"
    "table{font-size:7.5pt}ol{font-size:7.5pt;columns:2;column-gap:6mm}h1{font-size:11pt}h2{font-size:9pt}"
    "li{break-inside:avoid}}")
NUMBERS = (0, 4, 6, 7, 8, 9, 10)  # the seat table's columns of numbers (right-aligned)
BREAKDOWN = (3, 5, 6, 7, 8, 9)  # the team, how he left, where the points come from: the print's (a phone: under the
ROLE_COLUMN, LEFT_COLUMN = 2, 5  # role, how he left; the breakdown in the lines)
BLANK_ZERO = (4, 6, 7, 8, 9)  # a 0 there is left blank on the page (the CSV keeps it): the points read at a glance


async def _room_for(request: Request, code: str) -> tuple[RoomRecord, Translator] | Translator:
    """The room if this browser held a seat in it, with the reader's translator; else only the translator."""
    identity = components.read_identity(request)
    _ = components.tr(identity.language)
    room = await store.get_room_by_code(store.normalize_code(code))
    if room is None:
        return _
    token = identity.token_for(room.code)
    seat = await store.get_seat_by_token(token) if token else None
    if seat is None or seat.room_id != room.id:
        return _
    return room, _


def _not_found(_: Translator) -> HTMLResponse:
    text = html.escape(_(NOT_FOUND))
    return HTMLResponse(f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{text}</title></head>'
                        f'<body><p data-testid="protocol-refused">{text}</p></body></html>', status_code=404,
                        headers={"Cache-Control": "no-store"})


def _download(body: str, name: str, media: str) -> Response:
    return Response(body.encode("utf-8"), media_type=f"{media}; charset=utf-8", headers={
        "Content-Disposition": f"attachment; filename*=UTF-8''{quote(name)}", "Cache-Control": "no-store"})


def _name_of(_: Translator, protocol: Protocol) -> wording.NameOf:
    seats = {seat.seat: seat for seat in protocol.seats}

    def name_of(number: int) -> str:
        seat = seats.get(number)
        return wording.seat_label(_, number, seat.name if seat else "?", seat.is_bot if seat else False)
    return name_of


def seat_rows(_: Translator, protocol: Protocol) -> tuple[list[str], list[list[str]]]:
    """The protocol's table of seats: headers and rows, in the reader's language."""
    headers = [_("Seat"), _("Name"), _("Role"), _("Team"), _("Fouls"), _("Left the table"), _("Win"),
               _("Removed by fouls"), _("Best move"), _("Extra points"), _("Points")]
    rows = []
    for seat in protocol.seats:
        left = LEFT.get(seat.removed, KILLED) if seat.removed else ""
        rows.append([_.number(seat.seat), seat.name + (" " + _("(bot)") if seat.is_bot else ""),
                     wording.role_name(_, protocol.rules, seat.role), wording.team_name(_, seat.team),
                     _.number(seat.fouls), _(left) if left else "", _.number(seat.win), _.number(seat.foul_points),
                     _.number(seat.best_move), _.number(seat.extra), _.number(seat.points)])
    return headers, rows


def line_rows(_: Translator, protocol: Protocol) -> list[tuple[str, str]]:
    """Every line of the game in order: (when, what), in the reader's language."""
    name_of, out = _name_of(_, protocol), []
    for line in protocol.lines:
        text = wording.timeline_text(_, protocol.rules, line.params, name_of)
        if not text:
            continue
        if line.kind == "vote_result":  # the club's protocol: every vote of every round, by the voters' numbers
            text += " " + votes_text(_, line.params.get("votes") or {}, name_of)
        when = (_("Night {day}") if line.night else _("Day {day}")).format(day=_.number(line.day))
        out.append((when, text))
    return out


def votes_text(_: Translator, votes: dict[str, int | None], name_of: wording.NameOf) -> str:
    """Who voted for whom in a round: for each player voted for (most votes first), the voters' seat numbers."""
    by_target: dict[int | None, list[int]] = {}
    for voter, target in votes.items():
        by_target.setdefault(int(target) if target is not None else None, []).append(int(voter))
    parts = []
    for target, voters in sorted(by_target.items(), key=lambda item: (-len(item[1]), item[0] or 99)):
        seats = ", ".join(_.number(v) for v in sorted(voters))
        parts.append(_("Abstained: {names}").format(names=seats) + "." if target is None
                     else _("For {name}: {seats}.").format(name=name_of(target), seats=seats))
    return " ".join(parts)


def protocol_html(_: Translator, code: str, protocol: Protocol) -> str:
    e = html.escape
    headers, rows = seat_rows(_, protocol)
    title = _("Room {code}, game {number}: the protocol").format(code=code, number=_.number(protocol.number))
    winner = _(wording.WINNERS.get(protocol.winner, wording.WINNERS["draw"]))
    base = f"/r/{quote(code)}/games/{protocol.number}"
    back, as_csv, as_file = _("Back to the room"), _("Download as CSV"), _("Download the game file")
    happened = _("What happened")
    parts = [f'<!DOCTYPE html><html lang="{e(_.language)}"><head><meta charset="utf-8">'
             '<meta name="viewport" content="width=device-width, initial-scale=1">'
             f'<title>{e(title)}</title><style>{PRINT_CSS}</style>'
             f'</head><body><h1 data-testid="protocol-title">{e(title)}</h1>'
             f'<p class="links"><a href="/r/{quote(code)}">{e(back)}</a>'
             f'<a href="{base}.csv" data-testid="protocol-csv">{e(as_csv)}</a>'
             f'<a href="{base}.json" data-testid="protocol-scenario">{e(as_file)}</a></p>'
             f'<p data-testid="protocol-winner"><b>{e(winner)}</b></p>',
             '<div class="scroll"><table data-testid="protocol-seats"><tr>'
             + "".join(f"<th{_cls(i)}>{e(h)}</th>" for i, h in enumerate(headers)) + "</tr>"]
    zero = _.number(0)
    for row in rows:
        cells = [e("" if i in BLANK_ZERO and cell == zero else cell) for i, cell in enumerate(row)]
        if row[LEFT_COLUMN]:
            cells[ROLE_COLUMN] += f'<span class="m">{cells[LEFT_COLUMN]}</span>'
        parts.append("<tr>" + "".join(f"<td{_cls(i)}>{cell}</td>" for i, cell in enumerate(cells)) + "</tr>")
    parts.append(f'</table></div><h2>{e(happened)}</h2><ol data-testid="protocol-lines">')
    parts += [f"<li>{e(when)}: {e(text)}</li>" for when, text in line_rows(_, protocol)]
    parts.append("</ol></body></html>")
    return "".join(parts)


def _cls(column: int) -> str:
    names = [name for name, columns in (("n", NUMBERS), ("x", BREAKDOWN)) if column in columns]
    return f' class="{" ".join(names)}"' if names else ""


def protocol_csv(_: Translator, protocol: Protocol) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    headers, rows = seat_rows(_, protocol)
    writer.writerow(headers)
    writer.writerows(rows)
    writer.writerow([])
    writer.writerow([_("When"), _("What happened")])
    writer.writerows(line_rows(_, protocol))
    return out.getvalue()


def standings_rows(_: Translator, rows: list[evening.Standing]) -> tuple[list[str], list[list[str]]]:
    headers = [_("Place"), _("Name"), _("Games"), _("Wins"), _("Wins by team"), _("Points")]
    body = []
    for place, row in enumerate(rows, 1):
        teams = ", ".join(f"{wording.team_name(_, team)} {_.number(count)}"
                          for team, count in sorted(row.by_team.items()))
        body.append([_.number(place), row.name + (" " + _("(bot)") if row.is_bot else ""), _.number(row.games),
                     _.number(row.wins), teams, _.number(float(row.points))])
    return headers, body


def standings_csv(_: Translator, rows: list[evening.Standing]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    headers, body = standings_rows(_, rows)
    writer.writerow(headers)
    writer.writerows(body)
    return out.getvalue()


async def _protocol_for(request: Request, code: str, number: int
                        ) -> tuple[RoomRecord, Translator, Protocol] | Response:
    """Game ``number``'s protocol for a browser that held a seat in the room, once that game ended; else the
    not-found page (in the reader's language)."""
    found = await _room_for(request, code)
    if not isinstance(found, tuple):
        return _not_found(found)
    room, _ = found
    protocol = await load_protocol(room.id, number)
    return _not_found(_) if protocol is None else (room, _, protocol)


async def protocol_page(request: Request, code: str, number: int) -> Response:
    found = await _protocol_for(request, code, number)
    if not isinstance(found, tuple):
        return found
    room, _, protocol = found
    return HTMLResponse(protocol_html(_, room.code, protocol), headers={"Cache-Control": "no-store"})


async def protocol_file(request: Request, code: str, number: int) -> Response:
    found = await _protocol_for(request, code, number)
    if not isinstance(found, tuple):
        return found
    room, _, protocol = found
    name = _("protocol-{code}-{number}").format(code=room.code, number=number) + ".csv"
    return _download(protocol_csv(_, protocol), name, "text/csv")


async def scenario_file(request: Request, code: str, number: int) -> Response:
    found = await _room_for(request, code)
    if not isinstance(found, tuple):
        return _not_found(found)
    room, _ = found
    data = await load_scenario(room.id, number, f"{room.code}-{number}")
    if data is None:
        return _not_found(_)
    name = _("game-{code}-{number}").format(code=room.code, number=number) + ".json"
    return _download(json.dumps(data, ensure_ascii=False, indent=1), name, "application/json")


async def standings_file(request: Request, code: str) -> Response:
    found = await _room_for(request, code)
    if not isinstance(found, tuple):
        return _not_found(found)
    room, _ = found
    _first, games = await evening.evening_games(room.id)
    name = _("standings-{code}").format(code=room.code) + ".csv"
    return _download(standings_csv(_, evening.standings(games)), name, "text/csv")


def register() -> None:
    for path, handler in (("/r/{code}/games/{number}.csv", protocol_file),
                          ("/r/{code}/games/{number}.json", scenario_file),
                          ("/r/{code}/games/{number}", protocol_page),
                          ("/r/{code}/standings.csv", standings_file)):
        app.add_api_route(path, handler, methods=["GET"], include_in_schema=False)
