"""The shape of what ``engine.view`` gives a viewer: typed records, read by the pages key by key.

``TypedDict`` and not dataclasses: a view is plain JSON-like data (the tests, the scenario tools and the
pages read it as a dict, and it is shared between viewers of one state), and the types cost nothing at run
time while mypy checks every key a reader names. A key marked ``NotRequired`` is present only for some
kinds of record (an action's ``targets``, a night act's ``note``). Seats are numbers, except where they key
a mapping: there they are strings (``"3"``), as in JSON.

This module imports nothing: a page can name these types without importing the rules.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

ViewerKind = Literal["seat", "moderator", "spectator"]

EventRecord = dict[str, Any]
"""One event as its reader may read it: ``type``, ``day``, ``phase``, ``private`` (told to some seats only),
then the event's own parameters (``seat``, ``cause``, ``role``, ...), which differ by type and are worded by
the pages' catalogs. A night choice in the timeline has the same form (``act``, ``seat``, ``target``)."""


class Kamikaze(TypedDict):
    """uz: the voted-out kamikaze and the players who voted against him (he picks one of them)."""

    seat: int
    voters: list[int]


class SeatPointsRecord(TypedDict):
    """One seat's points of an ended game (``engine.points.SeatPoints``), as numbers."""

    seat: int
    team: str
    won: bool
    win: float
    fouls: float
    best_move: float
    extra: float
    total: float


class PublicView(TypedDict):
    """What every viewer of a game sees alike (``engine.view.public_view``): no role, no private result."""

    rules: str  # the rule set's name: "uz", "uk"
    phase: str  # an ``engine.state.Phase`` value
    day: int
    step: int  # bumps on every change of phase or speaker
    seconds: int  # how long the step lasts
    winner: str | None  # the winning team at the end ("draw" for none)
    alive: list[int]  # the living seats
    fouls: dict[str, float]  # seat -> fouls (uk)
    speaker: int  # the seat speaking now (uk), 0 for nobody
    queue: list[int]  # the speakers still to speak in this phase (uk)
    nominations: list[list[int]]  # [by, nominee] in order (uk)
    candidates: list[int]  # during a vote or the eliminate-all vote
    vote_round: int
    votes: dict[str, int | None]  # voter -> whom he voted for (None: nobody), during a vote
    yes_votes: dict[str, bool]  # voter -> yes/no, during the eliminate-all vote (uk)
    ready: list[int]  # who is ready to vote, during the discussion (uz)
    kamikaze: Kamikaze | None  # during the kamikaze's pick (uz)
    waiting: int  # at night: how many living players have not finished (never who)
    penalties: list[int]  # the nominees with a penalty vote for their fouls, in the first round (uk)
    best_moves: dict[str, list[int]]  # seat -> the seats his best move named (uk)
    points: dict[str, SeatPointsRecord]  # seat -> points, at the end only


class ViewerRecord(TypedDict):
    """Who the view is for."""

    kind: ViewerKind
    seat: int  # his seat for a seat, 0 otherwise


class NightChoice(TypedDict):
    """One of this seat's choices tonight."""

    act: str
    target: int | None
    note: bool


class Me(TypedDict):
    """A seated viewer's own seat: his role and where he stands in this step."""

    seat: int
    role: str
    alive: bool
    night_choices: list[NightChoice]  # at night
    done: bool  # he has done this step's part (his night, his vote, ready)
    note_used: bool | None  # the commissar's one note (uk): left already; None for everybody else


class Offer(TypedDict):
    """An action this viewer may take now, with every legal target. ``type`` names the action (``night_act``,
    ``vote``, ``ready``, ``nominate``, ``end_speech``, ``eliminate_all``, ``kamikaze_pick``, ``best_move``, the
    moderator's ``foul``, ``withdraw_foul``, ``send_off`` and ``extra_points``); the other keys belong to some
    types only."""

    type: str
    targets: NotRequired[list[int]]
    none: NotRequired[bool]  # vote, kamikaze_pick: choosing nobody is allowed
    act: NotRequired[str]  # night_act: an ``engine.actions.Act`` value
    note: NotRequired[bool]  # night_act, the commissar's check (uk): he may still leave his note
    allowed: NotRequired[bool]  # night_act: False when shown but not allowed now, with ``reason``
    reason: NotRequired[str]  # a message id (``N_``) saying why not
    candidates: NotRequired[list[int]]  # eliminate_all
    amounts: NotRequired[list[float]]  # foul: the amounts he may give now
    removes: NotRequired[dict[str, float]]  # foul: seat -> the amount that removes him from the table
    last: NotRequired[dict[str, float]]  # withdraw_foul: seat -> the foul taken back
    most: NotRequired[int]  # best_move: how many seats he may name
    limit: NotRequired[float]  # extra_points: the most a seat may get
    given: NotRequired[dict[str, float]]  # extra_points: seat -> what was given so far


class ChatChannels(TypedDict):
    """The chats this viewer may read and write now: ``room``, ``mafia``, ``dead``."""

    read: list[str]
    write: list[str]


class TeamNight(TypedDict):
    """The mafia's night, for its living members: who chooses the kill, the suggestions, the choice."""

    acting_don: int | None
    suggestions: dict[str, int | None]  # member -> the seat he suggests
    kill: int | None


class ModeratorPick(TypedDict):
    """One night choice as the moderator sees it (he knows every role)."""

    seat: int
    role: str
    act: str
    target: int | None
    note: bool


class ModeratorNight(TypedDict):
    """The moderator's night: who has not chosen yet, each choice, and what the night would bring now."""

    waiting: list[int]
    picks: list[ModeratorPick]
    outcome: list[EventRecord]


class View(PublicView):
    """One viewer's view of a game (``engine.view.view``): the public part and what he may know."""

    roles: dict[str, str]  # seat -> role, for every role he may know
    teams: dict[str, str]  # seat -> team, for the same seats
    events: list[EventRecord]  # the events he may read, in order
    viewer: ViewerRecord
    me: Me | None  # a seated viewer's own seat
    actions: list[Offer]  # what he may do now
    chat: ChatChannels
    team_night: TeamNight | None  # a living mafia member's night
    moderator_night: ModeratorNight | None  # the moderator's night
    timeline: list[EventRecord] | None  # at the end: every night's choices and every event, half-day by half-day
