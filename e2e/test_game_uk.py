"""The uk club game in real browsers: 12 phones (in Ukrainian) and the host as moderator (in English: he runs the
game and gives fouls). At several moments a glance at any covered phone tells nothing (``e2e.glance``, issue 20).
Day 1: speeches with nominations, fouls, a tied vote, the defence again, the re-vote tied again, the vote on
eliminating both; night 1: the commissar leaves his note and is killed, the note is read out; day 2: a single
nominee goes without a vote, and the red team wins. Roles are never shown before the end (uk), so after
every phase no page holds any other player's role, dead or alive."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from e2e.glance import (
    confirm_all,
    hide_page,
    let_go,
    reveal_held,
    same_glances,
    signature,
    start_covered,
    vote_covered,
)
from e2e.harness import Phone, Server, Table, exactly

pytestmark = pytest.mark.e2e

NAMES = ["Остап", "Мирослава", "Тарас", "Olena", "Богдан", "Ірина", "Andriy", "Соломія", "Nazar", "Дарина", "Pavlo",
         "Леся"]


def test_twelve_players_with_a_moderator(server: Server, phones: Callable[..., Phone]) -> None:
    table = Table(server.base, "uk")
    table.open_room(phones("Ведучий", "en"), moderated=True)
    table.join(*(phones(name, "uk") for name in NAMES))
    table.set_timers(speech_seconds=600, defence_seconds=600, last_words_seconds=600, vote_seconds=600,
                     night_seconds=600)
    start_covered(table, "speeches")
    listening = [p for p in table.players if p.seat != 1]  # the first speaker's screen says it is his turn
    same_glances(listening, "day 1, speeches, before anyone revealed")
    table.read_roles()
    covered = same_glances(listening, "day 1, speeches")[0]
    moderator = table.moderator
    assert moderator is not None
    assert moderator.page.get_by_text(moderator.t("You are the moderator: you see every role.")).is_visible()
    don, courtesan, commissar = table.one("don"), table.one("courtesan"), table.one("commissar")
    doctor, maniac = table.one("doctor"), table.one("maniac")
    first_mafia, second_mafia = table.by_role("mafia")
    civilians = table.by_role("civilian")
    assert len(civilians) == 5
    assert set(don.known) == {first_mafia.seat, second_mafia.seat, courtesan.seat}
    assert not commissar.known and not maniac.known

    # Revealed, the don's screen and the commissar's differ from the covered one and from each other; covered
    # again by the page's own veil and by hiding the page, alike again.
    reveal_held(don, hold=True)
    reveal_held(commissar, hold=True)
    shows_don, shows_commissar = signature(don), signature(commissar)
    assert shows_don != covered and shows_commissar != covered and shows_don != shows_commissar
    don.page.evaluate("() => window.mafiaVeil.cover()")
    hide_page(commissar)
    let_go(don, commissar)
    same_glances(listening, "day 1, speeches, covered again", wait=3000)

    # Day 1: the first two speakers who can nominate the two plain mafia do; the moderator fouls a civilian.
    order = list(range(1, 13))
    nominations: dict[int, int] = {}
    for nominee in (first_mafia.seat, second_mafia.seat):
        nominator = next(s for s in order if s != nominee and s not in nominations)
        nominations[nominator] = nominee
    fouled = civilians[0]

    def fouls(seat: int) -> None:
        if seat == 3:
            table.foul(fouled.seat, 1)
            table.foul(fouled.seat, 0.5)

    assert table.speeches("speeches", 1, nominations, fouls) == order
    for phone in table.players:
        expect(phone.page.get_by_text(phone.t("fouls: {count}").format(count=phone.t.number(1.5)),
                                      exact=True)).to_be_visible()
    for phone in table.phones:  # uk writes a decimal comma, en (the moderator) a point
        assert ("1,5" if phone.language == "uk" else "1.5") in phone.page.content(), phone
    table.expect_phase("defence", 1)
    in_nomination_order = [nominations[seat] for seat in sorted(nominations)]
    assert table.speeches("defence", 1) == in_nomination_order
    table.expect_phase("vote", 1)
    # The vote: alike before anyone votes; then those who voted alike, those who did not alike.
    same_glances(table.players, "day 1, vote")
    tie = tied_votes(table, first_mafia.seat, second_mafia.seat)
    voters = [don, doctor, maniac]
    for phone in voters:
        vote_covered(phone, tie.pop(phone.seat))
    same_glances(voters, "day 1, vote: those who voted")
    same_glances([p for p in table.players if p not in voters], "day 1, vote: those who did not")
    table.vote(1, tie)
    tie = tied_votes(table, first_mafia.seat, second_mafia.seat)
    table.expect_phase("defence", 1)
    for phone in table.players:
        t = phone.t
        tied_seats = [seat for seat in in_nomination_order if seat in (first_mafia.seat, second_mafia.seat)]
        tied = t("The vote is tied between {names}.").format(  # named in the order they were nominated
            names=t.join([table.label(t, seat) for seat in tied_seats]))
        expect(phone.tid("news").filter(has_text=exactly(tied))).to_be_visible()
    table.speeches("defence", 1)
    table.expect_phase("vote", 1)
    for phone in table.living:
        expect(phone.page.get_by_text(phone.t("The re-vote between the tied players."))).to_be_visible()
    table.vote(1, tie)
    table.expect_phase("eliminate_all", 1)
    table.eliminate_all(1, {p.seat: p.seat not in (first_mafia.seat, second_mafia.seat, courtesan.seat)
                            for p in table.living})
    table.died(first_mafia.seat, second_mafia.seat)
    table.expect_phase("last_words", 1)
    assert sorted(table.speeches("last_words", 1)) == sorted(in_nomination_order)

    # Night 1: the don kills the commissar, who checks the don and leaves a note; the maniac kills the courtesan.
    table.expect_phase("night", 1)
    same_glances(table.living, "night 1, start")
    # Half-way (four have confirmed), every covered screen is still alike.
    confirm_all([(don, commissar.seat), (doctor, doctor.seat), (courtesan, civilians[1].seat),
                 (maniac, courtesan.seat)])
    same_glances(table.living, "night 1, four have confirmed")
    table.night(1, {commissar.seat: ("check", don.seat)}, notes=[commissar.seat],
                acted=(don.seat, doctor.seat, courtesan.seat, maniac.seat))
    table.died(commissar.seat, courtesan.seat)
    table.expect_phase("last_words", 2)
    for phone in table.players:
        t = phone.t
        note = t("The commissar's note is read out: {target} is black.").format(target=table.label(t, don.seat))
        expect(phone.tid("news").filter(has_text=exactly(note))).to_be_visible()
    speaker = table.speaker(moderator, "last_words")  # the living but the speaker (public) alike, covered
    same_glances([p for p in table.living if p.seat != speaker], "day 2, last words")
    table.speeches("last_words", 2)

    # Day 2: a single nominee (the don) is eliminated without a vote: every black player is out.
    table.expect_phase("speeches", 2)
    first = next(p.seat for p in table.living if p.seat >= 2 and p is not don)
    table.speeches("speeches", 2, {first: don.seat})
    table.died(don.seat)
    table.expect_phase("ended", 2)
    for phone in table.phones:
        expect(phone.tid("winner")).to_have_text(phone.t("The red team wins!"))
    print("\n".join(table.log))


def tied_votes(table: Table, one: int, other: int) -> dict[int, int | None]:
    """Every living player votes, half for each nominee (the nominees for each other)."""
    votes: dict[int, int | None] = {one: other, other: one}
    rest = [p.seat for p in table.living if p.seat not in (one, other)]
    for index, seat in enumerate(rest):
        votes[seat] = one if index % 2 == 0 else other
    return votes
